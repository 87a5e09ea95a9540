/**
 * `npm run docs:screenshot-hints`: docs/images/n8n-sent-earlier-hint.png — what a user sees in a real
 * n8n 2.41.1 editor when a run repeats one that already sent: the quickstart workflow
 * (examples/n8n-quickstart.json) is executed twice from the editor's own button, then the Send Batch
 * node is opened and its output pane shows the node's hint ("… already sent earlier …, not sent again").
 * Returns the hints the page showed, so the e2e test can hold the editor to them.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import { start } from '../../../sandbox/server.ts';
import type { Sandbox } from '../../../sandbox/server.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../../support/system.ts';
import { OWNER, openEditor } from './editor-session.ts';
import { killAll, repoRoot, run, type N8nWorkflow } from './n8n-harness.ts';

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
	// The run is over when the canvas shows the Send Batch node's output count again.
	await page.getByText(/Workflow executed successfully|executed successfully/i).first().waitFor({ timeout: 120_000 });
}

export async function screenshotHints(outFile = join(repoRoot(), 'docs', 'images', 'n8n-sent-earlier-hint.png')): Promise<HintScreenshot> {
	const work = await mkdtemp(join(tmpdir(), 'n8n-hint-shot-'));
	let sandbox: Sandbox | undefined;
	let editor: Awaited<ReturnType<typeof openEditor>> | undefined;
	try {
		sandbox = await start({ port: 0, host: '127.0.0.1' });
		const packed = await run(join(repoRoot(), 'node_modules', '.bin', 'node'), [join(repoRoot(), 'nodes', 'build', 'lint-package.mjs'), '--pack-only', '--out', work], { cwd: repoRoot(), timeoutMs: 360_000 });
		if (packed.code !== 0) throw new Error(`build/pack failed:\n${packed.stderr}`);
		const tarball = JSON.parse(packed.stdout.trim().split('\n').at(-1)!).tarball as string;
		const quickstart = JSON.parse(await readFile(join(repoRoot(), 'examples', 'n8n-quickstart.json'), 'utf8')) as N8nWorkflow;
		editor = await openEditor({
			tarball,
			packageName: 'n8n-nodes-messaging-service',
			credentials: [{ id: 'msgSandboxCred', name: 'Messaging Service (sandbox)', type: 'messagingServiceApi', data: { apiKey: 'sk_test_demo_ok', baseUrl: sandbox.url } }],
			workflows: [{ ...quickstart, id: WORKFLOW_ID }],
		});
		const context = await chromium.launchPersistentContext(join(work, 'chromium-profile'), { executablePath: chromiumPath('the n8n hint screenshot'), args: CHROMIUM_ARGS, viewport: { width: 1440, height: 960 }, headless: true });
		try {
			const page = context.pages()[0] ?? (await context.newPage());
			await page.goto(`${editor.server.url}/signin`);
			await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(OWNER.email);
			await page.locator('input[type="password"]').first().fill(OWNER.password);
			await page.keyboard.press('Enter');
			await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
			await page.goto(`${editor.server.url}/workflow/${WORKFLOW_ID}`);
			await executeFromEditor(page);
			const afterFirst = sandbox.control.summary().messages;
			await page.getByText(/Workflow executed successfully|executed successfully/i).first().waitFor({ state: 'hidden', timeout: 30_000 }).catch(() => undefined);
			await executeFromEditor(page);
			if (sandbox.control.summary().messages !== afterFirst) throw new Error(`the second run sent ${sandbox.control.summary().messages - afterFirst} message(s) again`);
			await page.locator('[data-test-id="canvas-node"][data-node-name="Send Batch"]').first().dblclick({ timeout: 30_000 });
			const hint = page.locator('[data-test-id="node-hint"]').filter({ hasText: 'already sent earlier' }).first();
			await hint.waitFor({ timeout: 30_000 });
			const hints = (await page.locator('[data-test-id="node-hint"]').allInnerTexts()).map((text) => text.trim());
			await page.screenshot({ path: outFile, animations: 'disabled' });
			return { file: outFile, hints, delivered: sandbox.control.summary().messages };
		} finally {
			await context.close();
		}
	} finally {
		try {
			await editor?.close();
			await killAll();
			await sandbox?.close();
		} finally {
			await rm(work, { recursive: true, force: true });
		}
	}
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
