import { ledgerRows } from '../support/ledger-rows.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { emails, sandboxClient, startSandbox } from './sandbox-client.ts';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ job_rows_per_second: 5000 });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());

test('§4 send batch: 2,345 messages → exactly 5 batch calls, every index mapped back to its own message', async () => {
  const { client, requests, close } = sandboxClient(sandbox);
  const input = emails(2345);
  input[7] = { channel: 'whatsapp', to: 'not-a-phone', body: 'm-7' };
  input[1203] = { channel: 'email', to: 'x@example.com', body: 'm-1203', subject: 'ok', colour: 'blue' } as never;
  const chunkEvents: [number, string, number, number][] = [];
  const out = await client.messages.sendBatch(input, { onChunk: (e) => chunkEvents.push([e.chunk, e.status, e.offset, e.count]) });
  await close();
  expect(requests.filter((r) => r.url.endsWith('/messages/batch'))).toHaveLength(5);
  expect(chunkEvents.sort((a, b) => a[0] - b[0])).toEqual([[0, 'done', 0, 500], [1, 'done', 500, 500], [2, 'done', 1000, 500], [3, 'done', 1500, 500], [4, 'done', 2000, 345]]);
  expect(out.results).toHaveLength(2345);
  expect(out.results.map((r) => r.index)).toEqual(input.map((_, i) => i));
  expect({ sent: out.sent, failed: out.failed, notAttempted: out.notAttempted }).toEqual({ sent: 2343, failed: 2, notAttempted: 0 });
  expect(out.results[7]).toMatchObject({ status: 'failed', wholeCall: false, error: { code: 'validation_failed', param: 'to', status: 0 } });
  expect(out.results[1203]).toMatchObject({ status: 'failed', error: { code: 'validation_failed', param: 'colour' } });
  const byId = new Map(ledgerRows(sandbox).messages.map((m) => [m.id, m]));
  for (const r of out.results) if (r.status === 'sent') expect(byId.get(r.id)?.body).toBe(`m-${r.index}`);
  expect(sandbox.control.summary()).toMatchObject({ messages: 2343, duplicates_detected: 0 });
});

test('§4 send: 250 recipients → 3 calls of ≤100, one result per recipient at its index', async () => {
  const { client, requests, close } = sandboxClient(sandbox);
  const to = Array.from({ length: 250 }, (_, i) => `+49151${String(1000000 + i)}`);
  to[120] = 'bogus';
  const out = await client.messages.send({ channel: 'whatsapp', to, body: 'Release 1.2 is out' });
  await close();
  const calls = requests.filter((r) => r.url.endsWith('/v1/messages'));
  expect(calls.map((r) => JSON.parse(r.body!).to.length)).toEqual([100, 100, 50]);
  expect(out.results.map((r) => r.index)).toEqual(to.map((_, i) => i));
  expect(out.sent).toBe(249);
  expect(out.results[120]).toMatchObject({ status: 'failed', error: { code: 'validation_failed' } });
  const ledgerTo = ledgerRows(sandbox).messages.map((m) => m.to);
  for (const r of out.results) if (r.status === 'sent') expect(ledgerTo).toContain(to[r.index]);
});

test('§4 bulk import: 2,500 contacts → 3 jobs awaited to completion, per-row errors mapped through the chunk offset', async () => {
  const { client, requests, close } = sandboxClient(sandbox);
  const contacts: Record<string, unknown>[] = Array.from({ length: 2500 }, (_, i) => ({ first_name: `P${i}`, email: `p${i}@example.com` }));
  for (const bad of [3, 1500, 2499]) contacts[bad] = { first_name: 'Bad', email: 'not-an-address' };
  const progress: number[] = [];
  const out = await client.contacts.importAndWait(contacts, { timeoutMs: 60_000, minDelayMs: 100, onProgress: (j) => progress.push(j.processed) });
  await close();
  expect(requests.filter((r) => r.url.endsWith('/contacts/bulk')).map((r) => JSON.parse(r.body!).contacts.length)).toEqual([1000, 1000, 500]);
  expect(out.chunks.map((c) => [c.status, c.offset, c.count])).toEqual([['queued', 0, 1000], ['queued', 1000, 1000], ['queued', 2000, 500]]);
  expect(out.waits.map((w) => w.result.status)).toEqual(['completed', 'completed', 'completed']);
  expect(out.rowErrors.map((e) => e.index).sort((a, b) => a! - b!)).toEqual([3, 1500, 2499]);
  expect(out.totals).toMatchObject({ contacts: 2500, queued: 2500, processed: 2500, failed: 3, completedJobs: 3, unfinishedJobs: 0 });
  expect(sandbox.control.summary().contacts).toBe(2497);
  expect(progress.length).toBeGreaterThan(0);
});

test('§7 a 402 in the third chunk: first chunks reported sent, the third refused whole, the rest not attempted', async () => {
  sandbox.control.configure({ accounts: [{ id: 'acc_demo', credits: 1000 }] });
  const { client, close } = sandboxClient(sandbox, { concurrency: 1 });
  const chunkStatus: string[] = [];
  const out = await client.messages.sendBatch(emails(2345), { onChunk: (e) => chunkStatus.push(e.status) });
  await close();
  expect(chunkStatus).toEqual(['done', 'done', 'failed', 'skipped', 'skipped']);
  const statusOf = (i: number) => out.results[i].status;
  expect([statusOf(0), statusOf(999), statusOf(1000), statusOf(1499), statusOf(1500), statusOf(2344)]).toEqual(['sent', 'sent', 'failed', 'failed', 'not_attempted', 'not_attempted']);
  expect({ sent: out.sent, failed: out.failed, notAttempted: out.notAttempted }).toEqual({ sent: 1000, failed: 500, notAttempted: 845 });
  expect(out.error).toMatchObject({ code: 'insufficient_credits', status: 402 });
  expect(out.results[1500]).toMatchObject({ error: { code: 'insufficient_credits' } });
  expect(sandbox.control.summary().messages).toBe(1000);
});

test('§7 after a top-up the identical call with the same key sends only what was not sent', async () => {
  sandbox.control.configure({ accounts: [{ id: 'acc_demo', credits: 600 }] });
  const { client, close } = sandboxClient(sandbox, { concurrency: 1 });
  const input = emails(1200);
  const first = await client.messages.sendBatch(input, { idempotencyKey: 'release-42' });
  expect(first.sent).toBe(500);
  sandbox.control.configure({ accounts: [{ id: 'acc_demo', credits: 10_000 }] });
  const second = await client.messages.sendBatch(input, { idempotencyKey: 'release-42' });
  await close();
  expect(second.sent).toBe(1200);
  expect(second.results.filter((r) => r.status === 'sent' && r.call.replayed)).toHaveLength(500);
  expect(sandbox.control.summary()).toMatchObject({ messages: 1200, duplicates_detected: 0 });
});

test('§4 reads: get message, get job, list contacts (all pages, opaque cursor), contact attributes, account', async () => {
  const { client, requests, close } = sandboxClient(sandbox);
  const sent = await client.messages.sendBatch(emails(1));
  const id = sent.results[0].status === 'sent' ? sent.results[0].id : '';
  expect(await client.messages.get(id)).toMatchObject({ id, channel: 'email', to: 'user0@example.com' });
  const imported = await client.contacts.importAndWait(
    Array.from({ length: 250 }, (_, i) => ({ email: `c${i}@example.com` })),
    { timeoutMs: 30_000, minDelayMs: 50 },
  );
  const jobId = imported.chunks[0].status === 'queued' ? imported.chunks[0].job.id : '';
  expect(await client.jobs.get(jobId)).toMatchObject({ id: jobId, total: 250, processed: 250 });
  requests.length = 0;
  const all = await client.contacts.list().toArray({ max: 10_000 });
  expect(all).toHaveLength(250);
  expect(new Set(all.map((c) => c.id)).size).toBe(250);
  expect(requests.map((r) => new URL(r.url).searchParams.get('limit'))).toEqual(['100', '100', '100']);
  const firstTwenty = await client.contacts.list({ limit: 20 }).toArray({ max: 45 });
  expect(firstTwenty.map((c) => c.id)).toEqual(all.slice(0, 45).map((c) => c.id));
  expect((await client.contactAttributes.list()).map((a) => a.key)).toEqual(expect.arrayContaining(['city', 'vip']));
  expect(await client.account.get()).toMatchObject({ rate_limit: 600 });
  await expect(client.messages.get('msg_doesnotexist')).rejects.toMatchObject({ code: 'resource_not_found', status: 404 });
  await close();
});

test('§2 another account’s id answers 404 through the client', async () => {
  const { client, close } = sandboxClient(sandbox);
  const sent = await client.messages.sendBatch(emails(1));
  const other = sandboxClient(sandbox, { apiKey: 'sk_test_demo_other_account' });
  const id = sent.results[0].status === 'sent' ? sent.results[0].id : '';
  await expect(other.client.messages.get(id)).rejects.toMatchObject({ code: 'resource_not_found' });
  await Promise.all([close(), other.close()]);
});

test.each([
  ['sk_test_demo_expired', 'api_key_expired', 401],
  ['sk_test_demo_revoked', 'api_key_revoked', 401],
  ['sk_test_demo_plan_expired', 'subscription_expired', 403],
  ['sk_test_demo_suspended', 'account_suspended', 403],
  ['sk_test_demo_no_messages_write', 'insufficient_scope', 403],
  ['sk_test_demo_no_credits', 'insufficient_credits', 402],
  ['sk_test_unknown', 'invalid_api_key', 401],
])('§5/§7 %s → %s is not retried and names its remedy', async (key, code, status) => {
  const { client, requests, close } = sandboxClient(sandbox, { apiKey: key });
  const out = await client.messages.sendBatch(emails(3));
  await close();
  expect(requests).toHaveLength(1);
  expect(out.results.every((r) => r.status === 'failed' && r.error.code === code && r.error.status === status)).toBe(true);
  expect(out.error?.remedy).toMatch(/\w/);
  expect(JSON.stringify(out)).not.toContain(key);
});

test('§7 channel_not_in_plan and no_sender_available come back per element in a batch', async () => {
  const noWhatsapp = sandboxClient(sandbox, { apiKey: 'sk_test_demo_no_whatsapp' });
  const out = await noWhatsapp.client.messages.sendBatch([{ channel: 'whatsapp', to: '+4915112345678', body: 'x' }, { channel: 'email', to: 'a@example.com', body: 'y' }]);
  expect(out.results.map((r) => (r.status === 'failed' ? r.error.code : r.status))).toEqual(['channel_not_in_plan', 'sent']);
  const noSender = sandboxClient(sandbox, { apiKey: 'sk_test_demo_no_sender' });
  const out2 = await noSender.client.messages.send({ channel: 'whatsapp', to: ['+4915112345678'], body: 'x' });
  expect(out2.error).toMatchObject({ code: 'no_sender_available', status: 422 });
  await Promise.all([noWhatsapp.close(), noSender.close()]);
});
