// `npm run build` / `npm run lint:n8n`: n8n's own CLI (`n8n-node build | lint`, @n8n/node-cli) on exactly
// what ships.
//
// Why a staging folder: the CLI works on its current directory as a whole. `n8n-node lint` runs
// `eslint .` there and, with `"strict": true` under `n8n` in package.json, insists that eslint.config.mjs
// is n8n's default config verbatim (no ignores of our own); `n8n-node build` runs a bare `tsc` (so the
// folder's tsconfig.json) and copies every .png/.svg below it. At the repo root that would lint and
// compile test/, sandbox/, action/, bench/ and copy docs/ images into dist/. So the package is assembled
// in `.n8n-package/<command>/` (git-ignored; one per command so a lint and a build can run at once): the root package.json, the default eslint config and a build
// tsconfig (nodes/build/cli-package/), and copies of nodes/, credentials/ and src/ less src/runtime —
// the shared src/ stays where it is, one copy for the node and the action; relative imports keep working
// because the layout is the same. node_modules is a symlink to the root's. `build` then moves the
// compiled dist/ to the root, where `npm pack` (nodes/build/lint-package.mjs) packs it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const stageRoot = join(root, '.n8n-package');
const SHIPPED_SOURCES = ['nodes', 'credentials', 'src'];
const NOT_SHIPPED = [join('nodes', 'build'), join('src', 'runtime')];

function shipped(source) {
  const path = relative(root, source);
  return !NOT_SHIPPED.some((skip) => path === skip || path.startsWith(skip + sep)) && !/\.test\.ts$/.test(path);
}

export function stage(command) {
  const stageDir = join(stageRoot, command);
  rmSync(stageDir, { recursive: true, force: true });
  mkdirSync(stageDir, { recursive: true });
  for (const dir of SHIPPED_SOURCES) cpSync(join(root, dir), join(stageDir, dir), { recursive: true, filter: shipped });
  for (const file of ['eslint.config.mjs', 'tsconfig.json']) cpSync(join(root, 'nodes', 'build', 'cli-package', file), join(stageDir, file));
  cpSync(join(root, 'package.json'), join(stageDir, 'package.json'));
  symlinkSync(join(root, 'node_modules'), join(stageDir, 'node_modules'), 'dir');
  return stageDir;
}

/** Runs `n8n-node <command>` in the staged package; throws (with the CLI's output) when it fails. */
export function runCli(stageDir, command, { stdio = 'inherit' } = {}) {
  const env = { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`, FORCE_COLOR: '0' };
  // Under Jest NODE_ENV is "test", which makes eslint-plugin-n8n-nodes-base treat every file as a node file.
  delete env.NODE_ENV;
  return execFileSync(join(root, 'node_modules', '.bin', 'n8n-node'), [command], { cwd: stageDir, env, stdio, encoding: 'utf8' });
}

function main() {
  const command = process.argv[2];
  if (command !== 'build' && command !== 'lint') throw new Error('usage: node nodes/build/n8n-cli.mjs build|lint');
  const stageDir = stage(command);
  runCli(stageDir, command);
  if (command === 'build') {
    if (!existsSync(join(stageDir, 'dist'))) throw new Error('n8n-node build left no dist/');
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    cpSync(join(stageDir, 'dist'), join(root, 'dist'), { recursive: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (error) {
    process.stderr.write(`[n8n-cli] ${error.message}\n`);
    process.exitCode = 1;
  }
}
