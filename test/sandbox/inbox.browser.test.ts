/**
 * The inbox in a real headless Chromium (Debian's chromium, found on PATH, through playwright-core): a batch sent
 * through the client appears live, hostile content shows as text and runs nothing, keys are masked.
 * Missing Chromium fails the test (.ci/run installs it). README's picture comes from the demo instead:
 * `npm start -- --no-keep --screenshot docs/images/inbox.png`.
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

const XSS = '<img src=x onerror=alert(1)>';

let sb: Sandbox;
let context: BrowserContext;
let page: Page;
let profile: string;
const dialogs: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  sb = await start({ port: 0, config: { job_rows_per_second: 100_000 } });
  profile = mkdtempSync(join(tmpdir(), 'inbox-chromium-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: chromiumPath('the inbox browser test'), args: CHROMIUM_ARGS, headless: true, viewport: { width: 1440, height: 1100 } });
  page = context.pages()[0] ?? (await context.newPage());
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') pageErrors.push(m.text());
  });
});

afterAll(async () => {
  await context?.close();
  await sb?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

test('a batch sent through the client appears live in the open inbox; hostile content is text; keys are masked', async () => {
  const response = await page.goto(`${sb.origin}/`);
  expect(response?.status()).toBe(200);
  const csp = response?.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("default-src 'none'");
  expect(csp).toContain("script-src 'self'");
  await page.waitForSelector('#live.on');

  const { client, close } = sandboxClient(sb);
  try {
    // One injected fault: the first batch call commits, then answers 500; the client's retry is a replay.
    sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'error_500_after_commit', count: 1 });
    const sent = await client.messages.sendBatch([
      { channel: 'email', to: 'ana@example.com', subject: 'Your order <script>alert(2)</script>', body: XSS },
      { channel: 'email', to: 'ana@example.com', subject: 'Shipped', body: '<p>Your parcel is on its way.</p>' },
      { channel: 'whatsapp', to: '+4915112345678', body: 'Hello from the sandbox 👋' },
      { channel: 'whatsapp', to: '+4915187654321', body: 'Your code is 123456' },
      { channel: 'whatsapp', to: 'not-a-number', body: 'never sent' },
    ]);
    expect(sent.results.map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'failed']);
    const imported = await client.contacts.importAndWait(
      [
        { first_name: 'Ana', email: 'ana@example.com', city: 'Lisbon', vip: true },
        { first_name: XSS, whatsapp: '+4915112345678', city: 'Berlin' },
        { first_name: 'Bad', email: 'nope' },
      ],
      { timeoutMs: 30_000, minDelayMs: 50, maxDelayMs: 200 },
    );
    expect(imported.totals).toMatchObject({ jobs: 1, completedJobs: 1, failed: 1 });

    // The rows appear without a reload: the page is live.
    for (const r of sent.results) if (r.status === 'sent') await page.waitForSelector(`article.message[data-id="${r.id}"]`);
    // The bad contact is element 2 of the import call, as the service's `index` says (not a made-up row number).
    await page.locator('#jobs li', { hasText: 'element 2: validation_failed (email)' }).waitFor();
    expect(await page.locator('#jobs th').allTextContents()).toContain('row errors (element of the import call, from 0)');
    expect(await page.locator('#jobs li').allTextContents()).not.toContainEqual(expect.stringMatching(/^row /));
    await page.locator('#contacts td', { hasText: 'Lisbon' }).waitFor();
    await page.locator('#events td.kind-replay').first().waitFor();

    // Hostile content shows as text and runs nothing.
    const xssId = (sent.results[0] as { id: string }).id;
    expect(await page.locator(`article.message[data-id="${xssId}"] pre.body`).textContent()).toBe(XSS);
    expect(await page.locator(`article.message[data-id="${xssId}"] .subject`).textContent()).toBe('Your order <script>alert(2)</script>');
    expect(await page.locator('#contacts').textContent()).toContain(XSS);
    expect(await page.locator('main img, main script').count()).toBe(0);
    expect(dialogs).toEqual([]);
    // The only console errors allowed: the HTML preview's sandbox refusing the hostile e-mail's script.
    expect(pageErrors.filter((e) => !e.startsWith("Blocked script execution in 'about:srcdoc'"))).toEqual([]);

    // Messages by channel and recipient; the ledger shows the send, the injected fault and the replay.
    const messagesText = (await page.locator('#messages').textContent()) ?? '';
    for (const s of ['email', 'whatsapp', 'ana@example.com', '+4915112345678', 'Your parcel is on its way.']) expect(messagesText).toContain(s);
    const eventsText = (await page.locator('#events').textContent()) ?? '';
    for (const s of ['send', 'fault', 'replay', '4 sent, 1 row error']) expect(eventsText).toContain(s);
    expect(await page.locator('#rates').textContent()).toContain('sk_test_…');

    // No API key in full anywhere on the page.
    const html = await page.content();
    expect(html).toContain('sk_test_…');
    expect(html).not.toContain('sk_test_demo_ok');
  } finally {
    await close();
  }
});

test('the inbox is read-only and same-origin: writes are 405, a foreign Origin or Host is refused, nothing carries CORS', async () => {
  const res = await page.request.post(`${sb.origin}/inbox/state`, { data: {} });
  expect(res.status()).toBe(405);
  const foreign = await page.request.get(`${sb.origin}/inbox/state`, { headers: { origin: 'https://evil.example' } });
  expect(foreign.status()).toBe(403);
  expect(foreign.headers()['access-control-allow-origin']).toBeUndefined();
  const rebound = await page.request.get(`${sb.origin}/inbox/state`, { headers: { host: 'attacker.example' } });
  expect(rebound.status()).toBe(403);
  const state = await page.request.get(`${sb.origin}/inbox/state`);
  expect(state.status()).toBe(200);
  expect(state.headers()['access-control-allow-origin']).toBeUndefined();
  expect(await state.text()).not.toContain('sk_test_demo_ok');
});
