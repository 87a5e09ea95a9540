/**
 * `npm run n8n` with a credential file whose key comes from the environment (`${VAR}`): the substituted
 * secret never lands on disk readable by others — n8n stores it encrypted, and the copy handed to
 * `n8n import:credentials` is a 0600 file removed right after. Runs start-editor.ts as a user would,
 * against a real n8n 2.41.1. MSGSVC_SKIP_N8N_E2E=1 skips it.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnTracked, stopChild } from './harness/processes.ts';
import { buildAndPackMessagingPackage, ensureHost, freePort, N8nRest, nodeBinary, repoRoot, withPrivateInputFile, type N8nHome } from './n8n-harness.ts';
import { realN8nSkipped } from '../../support/system.ts';

const MINUTES = 60_000;
const describeE2e = realN8nSkipped() ? describe.skip : describe;

/** Every file under dir (recursively) whose bytes contain `needle`. */
async function filesContaining(dir: string, needle: string): Promise<string[]> {
	const hits: string[] = [];
	for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
		if (!entry.isFile()) continue;
		const path = join(entry.parentPath, entry.name);
		if ((await readFile(path)).includes(needle)) hits.push(path);
	}
	return hits;
}

describe('withPrivateInputFile', () => {
	test('writes a 0600 file in a 0700 dir even under umask 000, and removes it afterwards, also on failure', async () => {
		const root = await mkdtemp(join(tmpdir(), 'private-input-'));
		const previous = process.umask(0);
		try {
			let seen = '';
			await withPrivateInputFile({ root }, 'credentials', { apiKey: 'sk_secret' }, async (file) => {
				seen = file;
				expect((await stat(file)).mode & 0o777).toBe(0o600);
				expect((await stat(join(root, '.harness-input'))).mode & 0o777).toBe(0o700);
				expect(await readFile(file, 'utf8')).toContain('sk_secret');
			});
			await expect(stat(seen)).rejects.toThrow(/ENOENT/);
			await expect(withPrivateInputFile({ root }, 'x', {}, async () => Promise.reject(new Error('n8n failed')))).rejects.toThrow('n8n failed');
			expect(await readdir(join(root, '.harness-input'))).toEqual([]);
		} finally {
			process.umask(previous);
			await rm(root, { recursive: true, force: true });
		}
	});
});

describeE2e('npm run n8n (start-editor.ts) with a ${VAR} credential', () => {
	let work: string;
	let tarball: string;

	beforeAll(async () => {
		await ensureHost();
		work = await mkdtemp(join(tmpdir(), 'n8n-editor-e2e-'));
		tarball = await buildAndPackMessagingPackage(work);
	}, 20 * MINUTES);

	afterAll(async () => {
		if (work) await rm(work, { recursive: true, force: true });
	});

	test(
		'imports the credential; the secret is in no file of the user folder and n8n holds it encrypted',
		async () => {
			const secret = `sk_test_${randomBytes(16).toString('hex')}`;
			const userFolder = join(work, 'home');
			const credentialFile = join(work, 'credential.json');
			await writeFile(credentialFile, JSON.stringify([{ id: 'editorSecretCred', name: 'From env', type: 'messagingServiceApi', data: { apiKey: '${MSG_E2E_SECRET}', baseUrl: 'http://127.0.0.1:9/v1' } }]));
			const port = await freePort();
			const editor = spawnTracked(
				nodeBinary(),
				['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', join(repoRoot(), 'test', 'e2e', 'n8n', 'start-editor.ts'), tarball, '--credential', credentialFile, '--no-sandbox', '--port', String(port), '--user-folder', userFolder, '--max-minutes', '10'],
				{ cwd: repoRoot(), env: { ...process.env, MSG_E2E_SECRET: secret, N8N_EDITOR_QUIET: '1', N8N_EDITOR_PASSWORD: 'EditorE2e-pass1' } },
			);
			let out = '';
			editor.stdout!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
			editor.stderr!.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
			try {
				await new Promise<void>((resolveReady, rejectReady) => {
					const check = setInterval(() => {
						if (out.includes('n8n is ready')) {
							clearInterval(check);
							resolveReady();
						} else if (editor.exitCode !== null) {
							clearInterval(check);
							rejectReady(new Error(`start-editor exited ${editor.exitCode}:\n${out}`));
						}
					}, 250);
				});
				expect(out).toContain('imported 1 credential(s)');
				expect(out).not.toContain(secret);
				expect(await filesContaining(userFolder, secret)).toEqual([]);
				// n8n has it (the editor lists it), and would decrypt it for a request.
				const rest = new N8nRest(`http://127.0.0.1:${port}`, { hostDir: await ensureHost() } as N8nHome);
				await rest.login({ email: 'owner@example.com', password: 'EditorE2e-pass1' });
				const credentials = await rest.call<Array<{ id: string; name: string }>>('GET', '/rest/credentials');
				expect(credentials.map((c) => c.id)).toContain('editorSecretCred');
			} finally {
				await stopChild(editor, 20_000);
			}
			expect(await filesContaining(userFolder, secret)).toEqual([]);
		},
		10 * MINUTES,
	);
});
