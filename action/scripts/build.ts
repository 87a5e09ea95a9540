/**
 * Builds the action's bundle: `npm run build:action` (→ action/dist), or `node action/scripts/build.ts <dir>`
 * (check-dist builds into a temp dir and compares). Deterministic: the same sources give the same bytes.
 *
 * 1. ncc (ESM entry, minified, source maps beside the code). csv-parse and yaml are dynamic imports, so
 *    ncc emits them as chunks of their own that only batch / sync-contacts / file inputs load. The maps
 *    are not registered at run time (--no-source-map-register): source-map-support parsed the 5 MB map
 *    the first time any error's stack was formatted (undici's idle-socket errors, in a long run), about
 *    135 MB of peak RSS in a 50 MB incremental sync; a minified stack is mapped with the .map file instead.
 * 2. licenses.txt from every bundled package: ncc's --license writes one chunk's licenses only when
 *    there are several chunks, so the file is rebuilt from the source maps' `sources` (every
 *    node_modules package that contributed code), sorted, each with its license text.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const ROOT = resolve(dirname(process.argv[1]), '..', '..');
const { positionals } = parseArgs({ allowPositionals: true, options: {} });
const out = resolve(positionals[0] ?? join(ROOT, 'action', 'dist'));
const NCC = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');

rmSync(out, { recursive: true, force: true });
execFileSync(process.execPath, [NCC, 'build', join(ROOT, 'action', 'src', 'index.ts'), '-o', out, '--minify', '--source-map', '--no-source-map-register', '--transpile-only', '--quiet'], {
  cwd: ROOT,
  stdio: ['ignore', 'inherit', 'inherit'],
});

const packages = new Set<string>();
for (const file of readdirSync(out).filter((f) => f.endsWith('.js.map'))) {
  const map = JSON.parse(readFileSync(join(out, file), 'utf8')) as { sources: string[] };
  for (const source of map.sources) {
    const m = /^(?:\.\.?\/)*((?:[^/]+\/)*?node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(source);
    if (m) packages.add(m[1]);
  }
}
const entries: string[] = [];
for (const dir of [...packages].sort()) {
  const pkgDir = join(ROOT, dir);
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { name: string; version: string; license?: string };
  const licenseFile = readdirSync(pkgDir).find((f) => /^(licen[cs]e|copying)(\..*)?$/i.test(f));
  const text = licenseFile ? readFileSync(join(pkgDir, licenseFile), 'utf8').trim() : `(no license file; package.json says ${pkg.license ?? 'nothing'})`;
  entries.push(`${pkg.name} ${pkg.version}\n${pkg.license ?? ''}\n${text}\n`);
}
writeFileSync(join(out, 'licenses.txt'), entries.join('\n'));
if (!existsSync(join(out, 'index.js'))) throw new Error('ncc produced no index.js');
console.log(`action bundle → ${out}: ${readdirSync(out).join(', ')}; ${packages.size} bundled packages in licenses.txt`);
