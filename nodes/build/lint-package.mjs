// `npm run lint:package`: what n8n's community-package verification checks, run locally.
//   1. `npm run build` (n8n's CLI, `n8n-node build`, on the staged package: n8n-cli.mjs) and `npm pack` — under a lock, so parallel test workers never pack a half-built dist/;
//   2. the package rules on the packed package.json and file list (no runtime dependencies, peerDependencies
//      exactly { "n8n-workflow": "*" }, no install scripts, n8n section pointing at files in the tarball, …),
//      and the imports of every compiled .js (only n8n-workflow, node:crypto and relative paths);
//   3. @n8n/scan-community-package's analyzePackage: its tarball leg on the unpacked package (compiled .js +
//      package.json), and its source leg (package.json + nodes/ + credentials/ sources) on the repo.
// Flags: --pack-only (steps 1 only) and --out <dir> (where the tarball goes; default a temp dir).
// Prints one JSON line {ok, tarball, ...} last; exit code 1 when a check fails.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// eslint-plugin-n8n-nodes-base treats every file as a node file when NODE_ENV is "test" (as under Jest):
// lint as n8n's verification does.
delete process.env.NODE_ENV;

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const args = process.argv.slice(2);
const packOnly = args.includes('--pack-only');
const outIndex = args.indexOf('--out');
const outDir = outIndex >= 0 ? resolve(args[outIndex + 1]) : mkdtempSync(join(tmpdir(), 'n8n-pack-'));
const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };
const log = (line) => process.stderr.write(`[lint:package] ${line}\n`);

function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A lock directory per checkout: mkdir is atomic. A lock older than 10 minutes is stale. */
function withBuildLock(fn) {
  const lock = join(tmpdir(), `n8n-nodes-messaging-build-${createHash('sha256').update(root).digest('hex').slice(0, 12)}.lock`);
  const deadline = Date.now() + 5 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      } catch {
        /* removed meanwhile */
      }
      if (Date.now() > deadline) throw new Error(`build lock ${lock} held for more than 5 minutes`);
      sleepSync(200);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

function buildAndPack() {
  return withBuildLock(() => {
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    execFileSync('npm', ['run', '--silent', 'build'], { cwd: root, env, stdio: ['ignore', 'ignore', 'inherit'] });
    mkdirSync(outDir, { recursive: true });
    const out = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', outDir], { cwd: root, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const info = JSON.parse(out.slice(out.indexOf('[')))[0];
    return { tarball: join(outDir, info.filename), files: info.files.map((f) => f.path) };
  });
}

function walk(dir) {
  return readdirSync(dir, { recursive: true }).map((f) => join(dir, f)).filter((f) => statSync(f).isFile());
}

const FORBIDDEN_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepare', 'preuninstall', 'uninstall', 'postuninstall'];
const ALLOWED_IMPORTS = /^(n8n-workflow|node:crypto|crypto|\.{1,2}\/.*)$/;

/** The package rules of n8n's verification, on the packed package. Returns a list of problems. */
function packageRules(pkgDir, files) {
  const problems = [];
  const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
  const fail = (message) => problems.push(message);
  if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-/.test(pkg.name ?? '')) fail(`name "${pkg.name}" must start with n8n-nodes- (or @scope/n8n-nodes-)`);
  if (!pkg.keywords?.includes('n8n-community-node-package')) fail('keywords must include n8n-community-node-package');
  if (pkg.license !== 'MIT') fail(`license must be MIT, is ${pkg.license}`);
  if (JSON.stringify(pkg.files) !== JSON.stringify(['dist'])) fail(`files must be ["dist"], is ${JSON.stringify(pkg.files)}`);
  if (!pkg.author?.name || !pkg.author?.email) fail('author needs a name and an email');
  if (!pkg.version) fail('version is missing');
  if (pkg.dependencies && Object.keys(pkg.dependencies).length > 0) fail(`dependencies must be empty, are ${JSON.stringify(pkg.dependencies)}`);
  if (JSON.stringify(pkg.peerDependencies) !== JSON.stringify({ 'n8n-workflow': '*' })) fail(`peerDependencies must be exactly {"n8n-workflow":"*"}, are ${JSON.stringify(pkg.peerDependencies)}`);
  if (pkg.overrides) fail('overrides are not allowed');
  for (const s of FORBIDDEN_SCRIPTS) if (pkg.scripts?.[s]) fail(`lifecycle script "${s}" is not allowed`);
  const n8n = pkg.n8n ?? {};
  if (n8n.n8nNodesApiVersion !== 1) fail(`n8n.n8nNodesApiVersion must be 1, is ${n8n.n8nNodesApiVersion}`);
  if (!Array.isArray(n8n.nodes) || n8n.nodes.length === 0) fail('n8n.nodes lists no node');
  if (!Array.isArray(n8n.credentials) || n8n.credentials.length === 0) fail('n8n.credentials lists no credential');
  for (const path of [...(n8n.nodes ?? []), ...(n8n.credentials ?? [])]) {
    if (!path.startsWith('dist/') || !path.endsWith('.js')) fail(`n8n entry ${path} must be a dist/…js path`);
    if (!existsSync(join(pkgDir, path))) fail(`n8n entry ${path} is not in the tarball`);
  }
  for (const node of n8n.nodes ?? []) {
    const codex = node.replace(/\.js$/, '.json');
    if (!existsSync(join(pkgDir, codex))) fail(`codex file ${codex} is missing beside ${node}`);
    else if (!JSON.parse(readFileSync(join(pkgDir, codex), 'utf8')).categories?.includes('Communication')) fail(`${codex} must list the Communication category`);
  }
  for (const file of files) {
    if (!(file.startsWith('dist/') || ['package.json', 'README.md', 'LICENSE', 'LICENSE.md'].includes(file))) fail(`unexpected file in the tarball: ${file}`);
    if (/\.ts$/.test(file) && !file.endsWith('.d.ts')) fail(`TypeScript source in the tarball: ${file}`);
    if (/(^|\/)(test|sandbox|action|runtime)\//.test(file)) fail(`non-shipping file in the tarball: ${file}`);
  }
  const svgs = files.filter((f) => f.endsWith('.svg'));
  if (svgs.length < 2) fail('the node needs light and dark SVG icons in the tarball');
  for (const file of walk(join(pkgDir, 'dist')).filter((f) => f.endsWith('.js'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)|\bimport\s*\(\s*["']([^"']+)["']\s*\)|^\s*import\s[^'"]*["']([^"']+)["']/gm)) {
      const spec = m[1] ?? m[2] ?? m[3];
      if (!ALLOWED_IMPORTS.test(spec)) fail(`${relative(pkgDir, file)} imports "${spec}" (only n8n-workflow, node:crypto and relative paths ship)`);
    }
  }
  return { problems, pkg };
}

async function main() {
  const started = Date.now();
  const { tarball, files } = buildAndPack();
  log(`packed ${relative(root, tarball) || tarball} (${files.length} files) in ${Date.now() - started} ms`);
  if (packOnly) {
    console.log(JSON.stringify({ ok: true, tarball, files }));
    return;
  }
  const unpacked = mkdtempSync(join(tmpdir(), 'n8n-unpacked-'));
  execFileSync('tar', ['-xzf', tarball, '-C', unpacked, '--strip-components=1']);
  const { problems } = packageRules(unpacked, files);
  for (const p of problems) log(`package rule: ${p}`);

  const { analyzePackage, SOURCE_FILE_PATTERNS } = await import('@n8n/scan-community-package/scanner/scanner.mjs');
  const tarballScan = await analyzePackage(unpacked);
  if (!tarballScan.passed) log(`scanner (tarball): ${tarballScan.message}\n${tarballScan.details ?? ''}`);
  const sourceScan = await analyzePackage(root, SOURCE_FILE_PATTERNS);
  if (!sourceScan.passed) log(`scanner (source): ${sourceScan.message}\n${sourceScan.details ?? ''}`);
  const jsFiles = walk(join(unpacked, 'dist')).filter((f) => f.endsWith('.js')).length;
  rmSync(unpacked, { recursive: true, force: true });

  const ok = problems.length === 0 && tarballScan.passed && sourceScan.passed;
  log(ok ? `all checks passed in ${Date.now() - started} ms (${jsFiles} compiled .js scanned)` : 'FAILED');
  console.log(JSON.stringify({ ok, tarball, bytes: statSync(tarball).size, files: files.length, jsFiles, packageProblems: problems, tarballScan: tarballScan.passed, sourceScan: sourceScan.passed }));
  if (!ok) process.exitCode = 1;
}

main().catch((error) => {
  log(error.stack ?? String(error));
  process.exitCode = 1;
});
