import type { Sandbox } from '../../sandbox/server.ts';
import { MessagingClient } from '../../src/client.ts';
import { importResults } from '../../src/import-results.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import type { Runtime } from '../../src/runtime.ts';
import { localServer, recordedClient, reply } from './local-server.ts';
import { sandboxClient, startSandbox } from './sandbox-client.ts';

/** Fixes of issue 9 that each need an answer from a server, over real HTTP. */
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ job_rows_per_second: 5000 });
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());

test('the cursor is opaque: never compared; a listing that never ends stops at the page cap with the cursor to resume', async () => {
  const server = await localServer((_e, res) => reply(res, 200, { data: [{ id: 'c' }], meta: { has_more: true, next_cursor: 'same' } }));
  const { client, close } = recordedClient(server.url, { maxPages: 5 });
  const error = await client.contacts.list().toArray({ max: 1000 }).catch((e: unknown) => e);
  const perCall = await client.contacts.list({ maxPages: 2 }).toArray({ max: 1000 }).catch((e: unknown) => e);
  await close();
  await server.close();
  expect(error).toMatchObject({ code: 'page_cap_reached' });
  expect((error as Error).message).toMatch(/after 5 pages.*startingAfter "same"/);
  expect(server.exchanges.slice(0, 5).map((e) => new URL(e.url, 'http://x').searchParams.get('starting_after'))).toEqual([null, 'same', 'same', 'same', 'same']);
  expect(perCall).toMatchObject({ code: 'page_cap_reached' });
  expect(server.exchanges).toHaveLength(7);
});

test('the API key is redacted from every string handed back: row errors (message, param, doc_url, unknown fields), job errors, whole-call errors', async () => {
  const server = await localServer((e, res) => {
    const key = String(e.headers.authorization).replace('Bearer ', '');
    const echo = { type: 'invalid_request_error', code: 'validation_failed', message: `bad ${key}`, param: `to.${key}`, doc_url: `https://docs/${key}`, detail: { note: key } };
    if (e.url.endsWith('/messages/batch')) return reply(res, 200, { data: [{ index: 0, error: echo }] });
    if (e.url.endsWith('/contacts/bulk')) return reply(res, 202, { data: { object: 'job', id: 'job_1', status: 'queued', total: 1, processed: 0, failed: 0, errors: [], created_at: 'now' } });
    if (e.url.includes('/jobs/')) return reply(res, 200, { data: { object: 'job', id: 'job_1', status: 'done', total: 1, processed: 1, failed: 1, errors: [{ index: 0, error: echo }], created_at: 'now', completed_at: 'now' } });
    return reply(res, 403, { error: { ...echo, code: 'insufficient_scope' } });
  });
  const { client, close } = recordedClient(server.url);
  const key = 'sk_test_local_key_0001';
  const batch = await client.messages.sendBatch([{ channel: 'email', to: 'a@example.com', body: 'hi' }]);
  const imported = await client.contacts.importAndWait([{ email: 'a@example.com' }], { timeoutMs: 10_000 });
  const refused = await client.account.get().catch((e: unknown) => e);
  await close();
  await server.close();
  expect(batch.results[0]).toMatchObject({ status: 'failed', error: { code: 'validation_failed', message: 'bad [redacted]', param: 'to.[redacted]', docUrl: 'https://docs/[redacted]' } });
  expect(imported.rowErrors[0]).toMatchObject({ message: 'bad [redacted]', param: 'to.[redacted]' });
  expect(refused).toMatchObject({ code: 'insufficient_scope', param: 'to.[redacted]' });
  for (const value of [batch, imported, importResults(imported), refused]) expect(JSON.stringify(value)).not.toContain(key);
  expect(String((refused as Error).stack)).not.toContain(key);
});

test('a job row error whose index falls outside its chunk is reported as such, never given to another row', async () => {
  const server = await localServer((e, res) => {
    if (e.url.endsWith('/contacts/bulk')) return reply(res, 202, { data: { object: 'job', id: `job_${e.headers['idempotency-key']}`, status: 'queued', total: 2, processed: 0, failed: 0, errors: [], created_at: 'now' } });
    const errors = [{ index: 1, error: { code: 'validation_failed', message: 'bad email', param: 'email' } }, { index: 2, error: { code: 'validation_failed', message: 'row two of a chunk of two' } }];
    const id = decodeURIComponent(e.url.split('/').pop()!);
    return reply(res, 200, { data: { object: 'job', id, status: 'done', total: 2, processed: 2, failed: 2, errors, created_at: 'now', completed_at: 'now' } });
  });
  const { client, close } = recordedClient(server.url, { maxBodyBytes: 1024 });
  // Three small contacts cut into a chunk of two and a chunk of one by a 1 KiB body bound.
  const contacts = [{ email: `a@example.com`, note: 'x'.repeat(400) }, { email: 'b@example.com', note: 'x'.repeat(400) }, { email: 'c@example.com', note: 'x'.repeat(400) }];
  const out = await client.contacts.importAndWait(contacts, { idempotencyKey: 'k', timeoutMs: 10_000 });
  await close();
  await server.close();
  expect(out.chunks.map((c) => [c.offset, c.count])).toEqual([[0, 2], [2, 1]]);
  // Chunk 0 (offset 0, 2 rows): index 1 is contact 1; index 2 is outside it — not contact 2 of chunk 1.
  const chunk0 = out.rowErrors.filter((r) => r.chunk === 0);
  expect(chunk0.map((r) => [r.index, r.rowInJob, r.outsideChunk ?? false])).toEqual([[1, 1, false], [undefined, 2, true]]);
  const results = importResults(out);
  expect(results.contacts[1].status).toBe('failed');
  expect(results.unplacedRowErrors.some((r) => r.chunk === 0 && r.rowInJob === 2)).toBe(true);
  expect(results.contacts[2].error?.message).not.toBe('row two of a chunk of two');
});

test('importAndWait keeps the job ids when polling fails, and jobs.wait resumes them', async () => {
  sandbox.control.addFault({ route: 'GET /v1/jobs/*', kind: 'error_500_before_commit', count: 1000 });
  const { client, close } = sandboxClient(sandbox, { retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 } });
  const out = await client.contacts.importAndWait([{ email: 'a@example.com' }, { email: 'b@example.com' }], { timeoutMs: 10_000 });
  expect(out.waits).toHaveLength(1);
  const wait = out.waits[0];
  expect(wait.result).toMatchObject({ status: 'poll_failed', error: { code: 'internal_error' } });
  expect(wait.jobId).toMatch(/^job_/);
  expect(importResults(out)).toMatchObject({ counts: { unfinished: 2 }, unfinishedJobIds: [wait.jobId] });
  sandbox.control.clearFaults();
  const resumed = await client.jobs.wait(wait.jobId, { timeoutMs: 30_000, minDelayMs: 50 });
  await close();
  expect(resumed.status).toBe('completed');
});

test('a runtime without a transport is refused at once with a clear error (it was retried as a network error)', () => {
  const broken = nodeRuntime(undefined as never);
  expect(() => new MessagingClient({ baseUrl: sandbox.url, apiKey: 'sk_test_demo_ok', runtime: broken })).toThrow(/runtime has no transport function: pass one, e\.g\. nodeRuntime\(undiciTransport\(\)\)/);
});

test('a programming TypeError from the transport is surfaced as is, not retried as a network error', async () => {
  let calls = 0;
  const runtime: Runtime = {
    ...nodeRuntime(async () => ({ status: 200, headers: {}, body: '{}' })),
    transport: async () => {
      calls += 1;
      throw new TypeError('Cannot read properties of undefined (reading "request")');
    },
  };
  const client = new MessagingClient({ baseUrl: sandbox.url, apiKey: 'sk_test_demo_ok', runtime, limiters: new LimiterRegistry() });
  await expect(client.account.get()).rejects.toBeInstanceOf(TypeError);
  expect(calls).toBe(1);
});
