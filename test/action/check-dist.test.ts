/**
 * check-dist: rebuild the bundle into a temp dir with the same command as `npm run build:action` and
 * fail when the committed action/dist differs (someone changed the sources without rebuilding).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers.ts';

const DIST = join(ROOT, 'action', 'dist');

function buildCommand(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  const args = pkg.scripts['build:action'].split(/\s+/);
  expect(args.slice(0, 2)).toEqual(['ncc', 'build']);
  return args.slice(1);
}

test('the committed action/dist is what the sources build to', async () => {
  const out = mkdtempSync(join(tmpdir(), 'check-dist-'));
  const args = buildCommand();
  const o = args.indexOf('-o');
  args[o + 1] = out;
  await new Promise<void>((resolve, reject) =>
    execFile(process.execPath, [join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js'), ...args], { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 }, (error, _stdout, stderr) =>
      error ? reject(new Error(`ncc failed: ${stderr}`)) : resolve(),
    ),
  );
  const built = readdirSync(out).sort();
  expect(readdirSync(DIST).sort()).toEqual(built);
  const differing = built.filter((f) => !readFileSync(join(out, f)).equals(readFileSync(join(DIST, f))));
  if (differing.length) throw new Error(`action/dist is stale (${differing.join(', ')} differ): run \`npm run build:action\` and commit action/dist.`);
}, 120000);
