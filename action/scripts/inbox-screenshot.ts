/**
 * A picture of the inbox as a person sees it: Debian's chromium (found on PATH) through playwright-core,
 * headless, a fresh profile removed afterwards. Used by `npm start -- --screenshot <file>` for README's
 * picture, so the picture shows the demo's own data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../test/support/system.ts';

export async function screenshotInbox(origin: string, file: string): Promise<string> {
  const profile = mkdtempSync(join(tmpdir(), 'inbox-shot-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath('the inbox screenshot'), args: CHROMIUM_ARGS, headless: true, viewport: { width: 1440, height: 1000 } });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/`);
    await page.waitForSelector('#live.on');
    await page.screenshot({ path: file });
    return file;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
