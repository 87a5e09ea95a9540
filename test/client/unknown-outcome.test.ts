import { ledgerRows } from '../support/ledger-rows.ts';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../../sandbox/server.ts';
import { resendsForUnknown } from '../../src/resend.ts';
import { emails, sandboxClient, startSandbox } from './sandbox-client.ts';

/**
 * `unknown` versus `failed` over real HTTP: a write that may have been committed is reported unknown
 * with the key that settles it, and sending again with that key replays or completes it — the ledger
 * holds it once. A definitive refusal stays failed.
 */
const BATCH = 'POST /v1/messages/batch';
const FAST = { retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 10 } };

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());

test('reset after commit on every attempt → unknown with its key; re-sending with it replays, the ledger holds each once', async () => {
  sandbox.control.addFault({ route: BATCH, kind: 'reset_after_commit', count: 100 });
  const { client, close } = sandboxClient(sandbox, FAST);
  const input = emails(3);
  const first = await client.messages.sendBatch(input);
  expect({ sent: first.sent, failed: first.failed, unknown: first.unknown }).toEqual({ sent: 0, failed: 0, unknown: 3 });
  const key = first.results[0].call.idempotencyKey;
  expect(key).toBeTruthy();
  for (const r of first.results) expect(r).toMatchObject({ status: 'unknown', call: { idempotencyKey: key }, error: { code: 'transport_error', outcomeUnknown: true } });
  expect(ledgerRows(sandbox).messages).toHaveLength(3); // it was committed: "failed" would have been a lie

  sandbox.control.clearFaults();
  const resends = resendsForUnknown(first);
  expect(resends).toEqual([{ idempotencyKey: key, indexes: [0, 1, 2] }]);
  const second = await client.messages.sendBatch(resends[0].indexes.map((i) => input[i]), { idempotencyKey: resends[0].idempotencyKey });
  await close();
  expect(second.sent).toBe(3);
  for (const r of second.results) expect(r.call).toMatchObject({ replayed: true, idempotencyKey: key });
  expect(sandbox.control.summary()).toMatchObject({ messages: 3, duplicates_detected: 0 });
});

test('500 on every attempt → unknown (a 500 may follow a commit); the same key completes it once', async () => {
  sandbox.control.addFault({ route: BATCH, kind: 'error_500_before_commit', count: 100 });
  const { client, close } = sandboxClient(sandbox, FAST);
  const input = emails(2);
  const first = await client.messages.sendBatch(input, { idempotencyKey: 'five-hundred' });
  expect(first.unknown).toBe(2);
  expect(first.results[0]).toMatchObject({ status: 'unknown', error: { code: 'internal_error', status: 500 }, call: { idempotencyKey: 'five-hundred' } });
  sandbox.control.clearFaults();
  const second = await client.messages.sendBatch(input, { idempotencyKey: 'five-hundred' });
  await close();
  expect(second.sent).toBe(2);
  expect(sandbox.control.summary()).toMatchObject({ messages: 2, duplicates_detected: 0 });
});

test('a definitive refusal (401) stays failed, names its key, and nothing is in the ledger', async () => {
  const { client, close } = sandboxClient(sandbox, { ...FAST, apiKey: 'sk_test_not_issued_anywhere' });
  const out = await client.messages.sendBatch(emails(2));
  await close();
  expect({ failed: out.failed, unknown: out.unknown }).toEqual({ failed: 2, unknown: 0 });
  expect(out.results[0]).toMatchObject({ status: 'failed', wholeCall: true, error: { status: 401, outcomeUnknown: false } });
  expect(out.results[0].call.idempotencyKey).toMatch(/\S/);
  expect(ledgerRows(sandbox).messages).toHaveLength(0);
});

test('a 429 storm after an attempt that may have committed stays unknown: a later refusal does not undo it', async () => {
  sandbox.control.addFault({ route: BATCH, kind: 'reset_after_commit', count: 1 });
  sandbox.control.addFault({ route: BATCH, kind: 'rate_limit_429', skip: 1, count: 1000, retry_after: 0 });
  // Each 429 is waited at least 1 s, doubling (the floor): a bound of 1 s ends the storm after two of them.
  const { client, close } = sandboxClient(sandbox, { ...FAST, maxWaitMs: 1000 });
  const out = await client.messages.sendBatch(emails(1), { idempotencyKey: 'storm' });
  await close();
  expect(out.results[0]).toMatchObject({ status: 'unknown', error: { code: 'rate_limit_wait_exceeded', status: 0, outcomeUnknown: true }, call: { idempotencyKey: 'storm' } });
  expect(ledgerRows(sandbox).messages).toHaveLength(1);
});

test('a connection never made is failed, not unknown', async () => {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  const { client, close } = sandboxClient({ ...sandbox, url: `http://127.0.0.1:${port}/v1` }, FAST);
  const out = await client.messages.sendBatch(emails(1));
  await close();
  expect(out.results[0]).toMatchObject({ status: 'failed', wholeCall: true, error: { code: 'transport_error', outcomeUnknown: false } });
});

test('cancelled while the request is in flight → unknown; later chunks not attempted, each naming its key', async () => {
  sandbox.control.addFault({ route: BATCH, kind: 'slow', delay_ms: 1500, count: 1 });
  const { client, close } = sandboxClient(sandbox, { ...FAST, concurrency: 1 });
  const controller = new AbortController();
  const events: string[] = [];
  const pending = client.messages.sendBatch(emails(600), { signal: controller.signal, idempotencyKey: 'cancel', onChunk: (e) => events.push(`${e.chunk}:${e.status}`) });
  await new Promise((resolve) => setImmediate(resolve));
  while (sandbox.control.faults()[0].fired === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  controller.abort();
  const out = await pending;
  await close();
  expect({ unknown: out.unknown, notAttempted: out.notAttempted }).toEqual({ unknown: 500, notAttempted: 100 });
  expect(out.results[0]).toMatchObject({ status: 'unknown', error: { code: 'aborted', outcomeUnknown: true }, call: { idempotencyKey: 'cancel:chunk-0' } });
  expect(out.results[500]).toMatchObject({ status: 'not_attempted', error: { outcomeUnknown: false }, call: { idempotencyKey: 'cancel:chunk-1' } });
  expect(events).toEqual(['0:unknown', '1:skipped']);
});

test('import: a reset after the job was queued → the chunk is unknown with its key; importing again replays the job', async () => {
  sandbox.control.addFault({ route: 'POST /v1/contacts/bulk', kind: 'reset_after_commit', count: 100 });
  const { client, close } = sandboxClient(sandbox, FAST);
  const contacts = [{ email: 'a@example.com' }, { email: 'b@example.com' }];
  const first = await client.contacts.import(contacts, { idempotencyKey: 'import-1' });
  expect(first.chunks[0]).toMatchObject({ status: 'unknown', call: { idempotencyKey: 'import-1' }, error: { outcomeUnknown: true } });
  sandbox.control.clearFaults();
  const second = await client.contacts.import(contacts, { idempotencyKey: 'import-1' });
  await close();
  expect(second.chunks[0]).toMatchObject({ status: 'queued', call: { replayed: true } });
  expect(ledgerRows(sandbox).jobs).toHaveLength(1);
});
