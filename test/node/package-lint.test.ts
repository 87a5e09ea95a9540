/**
 * `npm run lint` (eslint.config.mjs: n8n's community-node rules on what ships, typescript-eslint elsewhere)
 * `npm run lint:n8n` (n8n's CLI, `n8n-node lint` in strict mode, on the staged package: nodes/build/n8n-cli.mjs)
 * and `npm run lint:package` (`n8n-node build` + npm pack + the package rules + @n8n/scan-community-package's
 * analyzePackage on the packed tarball and on the sources) must both pass: `npm test` covers them.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
// Without NODE_ENV: under Jest it is "test", which makes eslint-plugin-n8n-nodes-base treat every file
// as a node file (its own test mode); n8n's verification runs without it.
const { NODE_ENV: _jestNodeEnv, ...parentEnv } = process.env;
const env = { ...parentEnv, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` };

function npmRun(script: string, args: string[] = []): Promise<{ code: number; stdout: string; stderr: string }> {
	return new Promise((resolve) => {
		execFile('npm', ['run', '--silent', script, ...(args.length ? ['--', ...args] : [])], { cwd: root, env, maxBuffer: 32 * 1024 * 1024, timeout: 240_000 }, (error, stdout, stderr) => {
			resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
		});
	});
}

test('npm run lint passes (n8n community-node rules on nodes/, credentials/, src/; typescript-eslint elsewhere)', async () => {
	const result = await npmRun('lint');
	if (result.code !== 0) throw new Error(`npm run lint failed:\n${result.stdout}\n${result.stderr}`);
}, 240_000);

test('npm run lint:n8n: n8n-node lint (strict: n8n\'s default eslint config) finds nothing in what ships', async () => {
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { n8n?: { strict?: boolean } };
	expect(pkg.n8n?.strict).toBe(true);
	const result = await npmRun('lint:n8n');
	const output = `${result.stdout}\n${result.stderr}`;
	if (result.code !== 0) throw new Error(`npm run lint:n8n failed:\n${output}`);
	expect(output).toContain('n8n-node lint');
	expect(output).not.toMatch(/\d+ problems?/);
}, 240_000);

test('npm run lint:package passes: package rules, the scanner on the packed tarball and on the sources', async () => {
	// The packed tarball goes to a folder of ours, removed afterwards (by default it stays in the temp dir).
	const out = mkdtempSync(join(tmpdir(), 'n8n-pack-'));
	try {
		const result = await npmRun('lint:package', ['--out', out]);
		const summary = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}');
		if (result.code !== 0 || !summary.ok) throw new Error(`npm run lint:package failed:\n${result.stdout}\n${result.stderr}`);
		expect(summary).toMatchObject({ ok: true, packageProblems: [], tarballScan: true, sourceScan: true });
		expect(summary.tarball.startsWith(out)).toBe(true);
		expect(summary.jsFiles).toBeGreaterThan(20);
	} finally {
		rmSync(out, { recursive: true, force: true });
	}
}, 240_000);
