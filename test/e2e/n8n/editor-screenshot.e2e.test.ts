/**
 * The nodes panel of a real n8n 2.41.1 editor in headless chromium: searching "sms" (a codex alias) finds
 * the node, and its actions are every operation (the same script makes docs/images/n8n-operations.png).
 */
import { existsSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { screenshotOperations } from './screenshot-operations.ts';

const describeE2e = process.env.MSGSVC_SKIP_N8N_E2E === '1' || !existsSync('/usr/bin/chromium') ? describe.skip : describe;

describeE2e('the node in the n8n editor (headless chromium)', () => {
	test('searching "sms" finds the node; its actions list every operation', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'n8n-shot-'));
		try {
			const { file, actions } = await screenshotOperations(join(dir, 'operations.png'));
			expect(actions).toEqual(expect.arrayContaining([
				'Get the account',
				'Get many contacts',
				'Import contacts',
				'Get many contact attributes',
				'Get a job',
				'Wait for a job',
				'Get a message',
				'Send a message',
				'Send a batch of messages',
			]));
			expect(statSync(file).size).toBeGreaterThan(10_000);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	}, 15 * 60_000);
});
