/**
 * `npm run docs:screenshot`: docs/images/n8n-operations.png — the node's operation list in a real n8n
 * 2.41.1 editor. Builds and packs the package, starts n8n with it installed and an owner pre-created
 * (editor-session.ts), signs in with headless chromium (playwright-core, chromium from PATH, a fresh
 * profile), opens a new workflow, searches the nodes panel for "whatsapp" (one of the codex aliases) and opens
 * the Messaging Service node's actions. Prints the file and the operations it saw.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../support/system.ts';
import { start } from '../../../sandbox/server.ts';
import type { Sandbox } from '../../../sandbox/server.ts';
import { OWNER, openEditor } from './editor-session.ts';
import { killAll, repoRoot, run } from './n8n-harness.ts';

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
	const work = await mkdtemp(join(tmpdir(), 'n8n-screenshot-'));
	let sandbox: Sandbox | undefined;
	let editor: Awaited<ReturnType<typeof openEditor>> | undefined;
	const profile = join(work, 'chromium-profile');
	try {
		sandbox = await start({ port: 0, host: '127.0.0.1' });
		const packed = await run(join(repoRoot(), 'node_modules', '.bin', 'node'), [join(repoRoot(), 'nodes', 'build', 'lint-package.mjs'), '--pack-only', '--out', work], { cwd: repoRoot(), timeoutMs: 360_000 });
		if (packed.code !== 0) throw new Error(`build/pack failed:\n${packed.stderr}`);
		const tarball = JSON.parse(packed.stdout.trim().split('\n').at(-1)!).tarball as string;
		editor = await openEditor({
			tarball,
			packageName: 'n8n-nodes-messaging-service',
			credentials: [{ id: 'msgSandboxCred', name: 'Messaging Service (sandbox)', type: 'messagingServiceApi', data: { apiKey: 'sk_test_demo_ok', baseUrl: sandbox.url } }],
		});
		const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath('the n8n editor screenshot'), args: CHROMIUM_ARGS, viewport: { width: 1280, height: 1320 }, headless: true });
		try {
			const page = context.pages()[0] ?? (await context.newPage());
			await page.goto(`${editor.server.url}/signin`);
			await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(OWNER.email);
			await page.locator('input[type="password"]').first().fill(OWNER.password);
			await page.keyboard.press('Enter');
			await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
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

if (process.argv[1]?.endsWith('screenshot-operations.ts')) {
	screenshotOperations().then(
		(result) => process.stdout.write(`${JSON.stringify(result)}\n`),
		(error: unknown) => {
			process.stderr.write(`[screenshot] ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			process.exitCode = 1;
		},
	);
}
