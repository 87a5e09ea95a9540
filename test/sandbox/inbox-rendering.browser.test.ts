/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/**
 * How the inbox reads in a real headless Chromium: it opens filled (no fetch needed, no "live" badge
 * before the stream is open), an HTML e-mail is rendered in a sandboxed frame beside its source with no
 * script running inside it, emoji are drawn by a colour font rather than as boxes, and no word is broken
 * across lines in its narrow columns. Each test resets the sandbox and sends what it shows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { sandboxClient } from '../client/sandbox-client.ts';
import { CHROMIUM_ARGS, chromiumPath } from '../support/system.ts';

let sb: Sandbox;
let context: BrowserContext;
let profile: string;
let page: Page;
const dialogs: string[] = [];

beforeAll(async () => {
  sb = await start({ port: 0, config: { job_rows_per_second: 100_000 } });
  profile = mkdtempSync(join(tmpdir(), 'inbox-render-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath('the inbox browser test'), args: CHROMIUM_ARGS, headless: true, viewport: { width: 1440, height: 1100 } });
});

beforeEach(async () => {
  sb.control.reset();
  dialogs.length = 0;
  page = await context.newPage();
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
});

afterEach(async () => {
  await page.close();
});

afterAll(async () => {
  await context?.close();
  await sb?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

async function send(elements: Parameters<ReturnType<typeof sandboxClient>['client']['messages']['sendBatch']>[0]): Promise<string[]> {
  const { client, close } = sandboxClient(sb);
  try {
    const sent = await client.messages.sendBatch(elements);
    return sent.results.map((r) => (r.status === 'sent' ? r.id : r.status));
  } finally {
    await close();
  }
}

test('the page opens filled from the snapshot it carries: no fetch, and "live" only once the stream is open', async () => {
  const [id] = await send([{ channel: 'email', to: 'ana@example.com', subject: 'Shipped', body: 'Your parcel is on its way.' }]);
  const fetched: string[] = [];
  page.on('request', (r) => fetched.push(new URL(r.url()).pathname));
  // The stream never answers: whatever the page shows comes from the HTML it was served.
  await page.route('**/inbox/stream', () => new Promise(() => {}));
  await page.goto(`${sb.origin}/`);
  await page.waitForSelector(`article.message[data-id="${id}"]`);
  expect(await page.locator('#messages').textContent()).not.toContain('No messages yet');
  expect(await page.locator('#live').textContent()).not.toBe('live');
  expect(fetched).not.toContain('/inbox/state');

  await page.unroute('**/inbox/stream');
  await page.reload();
  await page.waitForSelector('#live.on');
  expect(await page.locator('#live').textContent()).toBe('live');
});

test('an HTML e-mail is rendered in a sandboxed frame beside its source, and nothing in it runs', async () => {
  const html = '<h1 id="greeting">Hello Ana</h1><p>Your parcel is on its way.</p><script>parent.postMessage("ran", "*"); document.title = "ran"; alert(1)</script><img src=x onerror="alert(2)">';
  const [id] = await send([
    { channel: 'email', to: 'ana@example.com', subject: 'Shipped', body: html },
    { channel: 'whatsapp', to: '+4915112345678', body: '<b>not html on WhatsApp</b>' },
  ]);
  await page.goto(`${sb.origin}/`);
  const article = page.locator(`article.message[data-id="${id}"]`);
  await article.waitFor();
  expect(await article.locator('iframe.preview').getAttribute('sandbox')).toBe('');
  expect(await article.locator('pre.body').textContent()).toBe(html);

  const frame = page.frames().find((f) => f !== page.mainFrame());
  expect(frame).toBeDefined();
  await frame!.locator('#greeting').waitFor();
  expect(await frame!.locator('#greeting').textContent()).toBe('Hello Ana');
  expect(await frame!.title()).not.toBe('ran');
  expect(dialogs).toEqual([]);
  // WhatsApp bodies are text only: no frame for them.
  expect(await page.locator('iframe.preview').count()).toBe(1);
});

test('emoji are drawn by a colour font, not as boxes', async () => {
  const [id] = await send([{ channel: 'whatsapp', to: '+4915112345678', body: 'Hello 👋🎉' }]);
  await page.goto(`${sb.origin}/`);
  const body = page.locator(`article.message[data-id="${id}"] pre.body`);
  await body.waitFor();
  // Draw the emoji in the font the page uses for bodies and count coloured pixels: a missing glyph is a
  // grey box (R = G = B), an emoji font draws colour.
  const coloured = await body.evaluate((el) => {
    const canvas = document.createElement('canvas');
    canvas.width = 80;
    canvas.height = 40;
    const ctx = canvas.getContext('2d')!;
    ctx.font = `32px ${getComputedStyle(el).fontFamily}`;
    ctx.fillText('👋', 4, 32);
    const { data } = ctx.getImageData(0, 0, 80, 40);
    let count = 0;
    for (let i = 0; i < data.length; i += 4) if (Math.max(data[i]!, data[i + 1]!, data[i + 2]!) - Math.min(data[i]!, data[i + 1]!, data[i + 2]!) > 40) count++;
    return count;
  });
  expect(coloured).toBeGreaterThan(50);
});

test('the narrow columns wrap between words, never inside one', async () => {
  await send([
    { channel: 'email', to: 'a-rather-long-address-for-a-narrow-column@example.com', subject: 'Shipped', body: 'Your parcel is on its way.' },
    { channel: 'whatsapp', to: 'not-a-number', body: 'never sent' },
  ]);
  const { client, close } = sandboxClient(sb);
  try {
    await client.contacts.importAndWait([{ first_name: 'Bad', email: 'nope' }], { timeoutMs: 30_000, minDelayMs: 50, maxDelayMs: 200 });
  } finally {
    await close();
  }
  await page.goto(`${sb.origin}/`);
  await page.locator('#jobs li').first().waitFor();
  const broken = await page.evaluate(() => {
    const found: string[] = [];
    for (const root of document.querySelectorAll('#events, #jobs, #rates, .meta')) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        // Words only: idempotency keys and ids (21+ characters, no spaces) may break where they must.
        for (const match of (node.textContent ?? '').matchAll(/(?<!\S)\S{1,20}(?!\S)/g)) {
          const range = document.createRange();
          range.setStart(node, match.index!);
          range.setEnd(node, match.index! + match[0].length);
          const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (lines.size > 1) found.push(match[0]);
        }
      }
    }
    return found;
  });
  expect(broken).toEqual([]);
});
