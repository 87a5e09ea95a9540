/**
 * `npm run docs:screenshot-hints`: docs/images/n8n-sent-earlier-hint.png — what a user sees in a real
 * n8n 2.41.1 editor when a run repeats one that already sent: the quickstart workflow
 * (examples/n8n-quickstart.json) is executed twice from the editor's own button, then the Send Messages
 * node is opened and its output pane shows the node's hint ("… already sent earlier …, not sent again").
 * Returns the hints the page showed, so the e2e test can hold the editor to them.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { withEditorPage } from './editor-page.ts';
import { repoRoot, type N8nWorkflow } from './n8n-harness.ts';

export interface HintScreenshot {
	file: string;
	/** The texts of the hints the output pane showed. */
	hints: string[];
	/** Messages the sandbox holds after both runs (the second must add none). */
	delivered: number;
}

const WORKFLOW_ID = 'hintShotWf';

async function executeFromEditor(page: Page): Promise<void> {
	await page.locator('[data-test-id="execute-workflow-button"]').first().click({ timeout: 60_000 });
	// The run is over when the editor says so (its toast).
	await page.getByText(/Workflow executed successfully|executed successfully/i).first().waitFor({ timeout: 120_000 });
}

export async function screenshotHints(outFile = join(repoRoot(), 'docs', 'images', 'n8n-sent-earlier-hint.png')): Promise<HintScreenshot> {
	const quickstart = JSON.parse(await readFile(join(repoRoot(), 'examples', 'n8n-quickstart.json'), 'utf8')) as N8nWorkflow;
	return await withEditorPage({ workflows: [{ ...quickstart, id: WORKFLOW_ID }], viewport: { width: 1440, height: 960 } }, async ({ page, editor, sandbox }) => {
		await page.goto(`${editor.server.url}/workflow/${WORKFLOW_ID}`);
		await executeFromEditor(page);
		const afterFirst = sandbox.control.summary().messages;
		await page.getByText(/Workflow executed successfully|executed successfully/i).first().waitFor({ state: 'hidden', timeout: 30_000 }).catch(() => undefined);
		await executeFromEditor(page);
		if (sandbox.control.summary().messages !== afterFirst) throw new Error(`the second run sent ${sandbox.control.summary().messages - afterFirst} message(s) again`);
		await page.locator('[data-test-id="canvas-node"][data-node-name="Send Messages"]').first().dblclick({ timeout: 30_000 });
		await page.locator('[data-test-id="node-hint"]').filter({ hasText: 'already sent earlier' }).first().waitFor({ timeout: 30_000 });
		const hints = (await page.locator('[data-test-id="node-hint"]').allInnerTexts()).map((text) => text.trim());
		await page.screenshot({ path: outFile, animations: 'disabled' });
		return { file: outFile, hints, delivered: sandbox.control.summary().messages };
	});
}

if (process.argv[1]?.endsWith('screenshot-hints.ts')) {
	screenshotHints().then(
		(result) => process.stdout.write(`${JSON.stringify(result)}\n`),
		(error: unknown) => {
			process.stderr.write(`[screenshot] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			process.exitCode = 1;
		},
	);
}
