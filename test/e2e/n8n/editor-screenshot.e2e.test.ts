/**
 * The nodes panel of a real n8n 2.41.1 editor in headless chromium: searching "whatsapp" (a codex alias) finds
 * the node, and its actions are every operation (the same script makes docs/images/n8n-operations.png).
 */
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realN8nSkipped } from '../../support/system.ts';
import { screenshotOperations } from './screenshot-operations.ts';

// chromium missing fails the test (screenshot-operations asks PATH for it); only the skip switch skips.
const describeE2e = realN8nSkipped() ? describe.skip : describe;

describeE2e('the node in the n8n editor (headless chromium)', () => {
	test('searching "whatsapp" finds the node; its actions list every operation', async () => {
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
				'Send a message to many recipients',
			]));
			// Version 2's names: "Send" is one message per item, as in n8n's messaging nodes.
			expect(actions).not.toContain('Send a batch of messages');
			expect(statSync(file).size).toBeGreaterThan(10_000);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	}, 15 * 60_000);
});
