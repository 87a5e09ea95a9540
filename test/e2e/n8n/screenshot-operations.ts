/**
 * `npm run docs:screenshot`: docs/images/n8n-operations.png — the node's operation list in a real n8n
 * 2.41.1 editor, signed in through headless chromium (editor-page.ts): opens a new workflow, searches the
 * nodes panel for "whatsapp" (one of the codex aliases) and opens the Messaging Service node's actions.
 * Prints the file and the operations it saw.
 */
import { join } from 'node:path';
import { withEditorPage } from './editor-page.ts';
import { repoRoot } from './n8n-harness.ts';

/** The part of the browser's Animation this file uses (the repo compiles without the DOM lib). */
interface BrowserAnimation {
	effect: { getTiming(): { iterations?: number } } | null;
	finished: Promise<unknown>;
}

export interface ScreenshotResult {
	file: string;
	/** The item names the nodes panel listed for the node (its actions, after n8n's trigger suggestions). */
	actions: string[];
}

export async function screenshotOperations(outFile = join(repoRoot(), 'docs', 'images', 'n8n-operations.png')): Promise<ScreenshotResult> {
	return await withEditorPage({ viewport: { width: 1280, height: 1320 } }, async ({ page, editor }) => {
		await page.goto(`${editor.server.url}/workflow/new`);
		await page.locator('[data-test-id="canvas-add-button"], [data-test-id="canvas-plus-button"]').first().click({ timeout: 60_000 });
		const search = page.locator('[data-test-id="node-creator-search-bar"] input, input[placeholder*="Search"]').first();
		await search.fill('whatsapp');
		await page.getByText('Messaging Service', { exact: true }).first().click({ timeout: 30_000 });
		// Ready when the list holds as many items after the "Actions (n)" heading as it announces, and
		// the panel's finite animations (its slide-in) have ended: finished, or cancelled when the panel
		// replaced one (a cancelled animation's `finished` rejects with an AbortError).
		const heading = page.getByText(/^Actions \(\d+\)$/).first();
		await heading.waitFor({ timeout: 30_000 });
		const announced = Number(/\d+/.exec(await heading.innerText())![0]);
		await heading.locator('xpath=following::*[@data-test-id="node-creator-item-name"]').nth(announced - 1).waitFor({ timeout: 30_000 });
		await page.locator('[data-test-id="node-creator"]').evaluate((panel: { getAnimations(o: { subtree: boolean }): BrowserAnimation[] }) =>
			Promise.all(panel.getAnimations({ subtree: true }).filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))),
		);
		const actions = (await page.locator('[data-test-id="node-creator-item-name"]').allInnerTexts()).map((text) => text.trim());
		await page.screenshot({ path: outFile, animations: 'disabled' });
		return { file: outFile, actions };
	});
}

if (process.argv[1]?.endsWith('screenshot-operations.ts')) {
	screenshotOperations().then(
		(result) => process.stdout.write(`${JSON.stringify(result)}\n`),
		(error: unknown) => {
			process.stderr.write(`[screenshot] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			process.exitCode = 1;
		},
	);
}
