/**
 * `npm run docs:screenshot-import`: docs/images/n8n-contact-import.png — Contact → Import of node version
 * 2 in a real n8n 2.41.1 editor (the resource mapper's own modes, no Mapping dropdown), beside what the
 * same node saved with version 1 shows (fixtures/workflow-v1-saved.json: its operation omitted, so
 * Import, with version 1's Mapping dropdown). Returns the labels and the operation each panel showed.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { withEditorPage } from './editor-page.ts';
import { repoRoot, type N8nWorkflow } from './n8n-harness.ts';

export interface ImportPanel {
	/** The parameter labels the panel showed, in order. */
	labels: string[];
	/** The Operation dropdown's shown value. */
	operation: string;
	/** The values the panel's inputs showed (a dropdown shows its choice in an input). */
	values: string[];
}

export interface ImportScreenshot {
	file: string;
	v1: ImportPanel;
	v2: ImportPanel;
}

async function fixture(name: string, id: string): Promise<N8nWorkflow> {
	const workflow = JSON.parse(await readFile(join(repoRoot(), 'test', 'e2e', 'n8n', 'fixtures', name), 'utf8')) as N8nWorkflow;
	return { ...workflow, id };
}

async function openImportNode(page: Page, url: string): Promise<ImportPanel> {
	await page.goto(url);
	await page.locator('[data-test-id="canvas-node"][data-node-name="Import Contacts"]').first().dblclick({ timeout: 60_000 });
	const panel = page.locator('[data-test-id="ndv"]').first();
	await panel.getByText('Wait for Completion', { exact: true }).first().waitFor({ timeout: 60_000 });
	// The mapper has loaded the account's fields (in version 1 it is not shown at all).
	await panel.getByText('Fetching fields').first().waitFor({ state: 'hidden', timeout: 60_000 });
	const labels = (await panel.locator('[data-test-id="parameter-input-label"], .n8n-input-label label, [data-test-id="input-label"]').allInnerTexts())
		.map((text) => text.split('\n')[0]!.trim())
		.filter(Boolean);
	const operation = await panel.locator('[data-test-id="parameter-input-operation"] input').first().inputValue({ timeout: 10_000 });
	const values = await panel.locator('input').evaluateAll((inputs) => inputs.map((input) => (input as unknown as { value: string }).value));
	return { labels, operation, values };
}

export async function screenshotImport(outFile = join(repoRoot(), 'docs', 'images', 'n8n-contact-import.png')): Promise<ImportScreenshot> {
	const workflows = [await fixture('workflow-v1-saved.json', 'importShotV1'), await fixture('workflow-v2.json', 'importShotV2')];
	return await withEditorPage({ workflows, viewport: { width: 1440, height: 960 } }, async ({ page, editor }) => {
		const v1 = await openImportNode(page, `${editor.server.url}/workflow/importShotV1`);
		const v2 = await openImportNode(page, `${editor.server.url}/workflow/importShotV2`);
		await page.screenshot({ path: outFile, animations: 'disabled' });
		return { file: outFile, v1, v2 };
	});
}

if (process.argv[1]?.endsWith('screenshot-import.ts')) {
	screenshotImport().then(
		(result) => process.stdout.write(`${JSON.stringify(result)}\n`),
		(error: unknown) => {
			process.stderr.write(`[screenshot] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			process.exitCode = 1;
		},
	);
}
