/**
 * A signed-in page of a real n8n 2.41.1 editor, for the scripts that look at it as a person would: a
 * sandbox, our package built and packed, n8n started with it and a sandbox credential (editor-session.ts),
 * and headless chromium from PATH (fresh profile) signed in as the owner. Everything is stopped and
 * removed when `use` returns or throws.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { Page } from 'playwright-core';
import { start } from '../../../sandbox/server.ts';
import type { Sandbox } from '../../../sandbox/server.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../../support/system.ts';
import { OWNER, openEditor, type EditorSession } from './editor-session.ts';
import { killAll, repoRoot, run, type N8nWorkflow } from './n8n-harness.ts';

export interface EditorPage {
  page: Page;
  editor: EditorSession;
  sandbox: Sandbox;
}

export async function withEditorPage<T>(options: { workflows?: N8nWorkflow[]; viewport: { width: number; height: number } }, use: (session: EditorPage) => Promise<T>): Promise<T> {
  const work = await mkdtemp(join(tmpdir(), 'n8n-editor-page-'));
  let sandbox: Sandbox | undefined;
  let editor: EditorSession | undefined;
  try {
    sandbox = await start({ port: 0, host: '127.0.0.1' });
    const packed = await run(join(repoRoot(), 'node_modules', '.bin', 'node'), [join(repoRoot(), 'nodes', 'build', 'lint-package.mjs'), '--pack-only', '--out', work], { cwd: repoRoot(), timeoutMs: 360_000 });
    if (packed.code !== 0) throw new Error(`build/pack failed:\n${packed.stderr}`);
    editor = await openEditor({
      tarball: JSON.parse(packed.stdout.trim().split('\n').at(-1)!).tarball as string,
      packageName: 'n8n-nodes-messaging-service',
      credentials: [{ id: 'msgSandboxCred', name: 'Messaging Service (sandbox)', type: 'messagingServiceApi', data: { apiKey: 'sk_test_demo_ok', baseUrl: sandbox.url } }],
      workflows: options.workflows,
    });
    const context = await chromium.launchPersistentContext(join(work, 'chromium-profile'), { executablePath: chromiumPath('a look at the n8n editor'), args: CHROMIUM_ARGS, viewport: options.viewport, headless: true });
    try {
      const page = context.pages()[0] ?? (await context.newPage());
      await page.goto(`${editor.server.url}/signin`);
      await page.locator('input[type="email"], input[name="emailOrLdapLoginId"]').first().fill(OWNER.email);
      await page.locator('input[type="password"]').first().fill(OWNER.password);
      await page.keyboard.press('Enter');
      await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 60_000 });
      return await use({ page, editor, sandbox });
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
