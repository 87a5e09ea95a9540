/**
 * The editor tells what happened: the quickstart workflow executed twice from a real n8n 2.41.1 editor's
 * own button (headless chromium), and the Send Messages node's output pane shows the hint that its rows
 * were already sent earlier and not sent again; the sandbox holds only the first run's messages. The same
 * script makes docs/images/n8n-sent-earlier-hint.png (`npm run docs:screenshot-hints`).
 */
import { statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realN8nSkipped } from '../../support/system.ts';
import { screenshotHints } from './screenshot-hints.ts';

const describeE2e = realN8nSkipped() ? describe.skip : describe;

describeE2e('hints in the n8n editor (headless chromium)', () => {
	test('a second run of the same items: nothing sent again, and the output pane says so', async () => {
		const dir = await mkdtemp(join(tmpdir(), 'n8n-hint-'));
		try {
			const { file, hints, delivered } = await screenshotHints(join(dir, 'hint.png'));
			// The quickstart sends 2 of its 3 items (the third has a typo) and the second run adds none.
			expect(delivered).toBe(2);
			expect(hints).toContain('2 of 3 items were already sent earlier (same trigger data, node and input item), not sent again: items 0–1. Their output items have "sentEarlier": true.');
			expect(statSync(file).size).toBeGreaterThan(10_000);
		} finally {
			await rm(dir, { recursive: true, force: true });
		}
	}, 15 * 60_000);
});
