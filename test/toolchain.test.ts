/**
 * The toolchain the package declares is the one it is built and tested with: the `node` devDependency
 * is pinned and installed, npm scripts run under it (not under whatever node is first on the PATH), and
 * its major is both the floor of `engines` and the runtime action.yml declares.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';

const ROOT = join(__dirname, '..');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string }; devDependencies: Record<string, string> };
const pinned = pkg.devDependencies.node!;
const major = Number(pinned.split('.')[0]);

test('the node devDependency is pinned to one version, and that version is what is installed', () => {
  expect(pinned).toMatch(/^\d+\.\d+\.\d+$/);
  expect(JSON.parse(readFileSync(join(ROOT, 'node_modules', 'node', 'package.json'), 'utf8')).version).toBe(pinned);
});

test('npm scripts run under the pinned node', () => {
  const out = execFileSync('npm', ['exec', '--no', '--offline', '--', 'node', '-p', 'JSON.stringify([process.version, process.execPath])'], { cwd: ROOT, encoding: 'utf8' });
  const [version, execPath] = JSON.parse(out.trim()) as [string, string];
  expect(version).toBe(`v${pinned}`);
  expect(realpathSync(execPath)).toBe(realpathSync(join(ROOT, 'node_modules', 'node', 'bin', 'node')));
});

test('engines admits node from the pinned major on, the major action.yml runs on', () => {
  expect(pkg.engines.node).toBe(`>=${major}`);
  const action = parse(readFileSync(join(ROOT, 'action', 'action.yml'), 'utf8')) as { runs: { using: string } };
  expect(action.runs.using).toBe(`node${major}`);
});
