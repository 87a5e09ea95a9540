import { Agent } from 'undici';
import { MessagingClient } from '../../src/client.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import { MIN_ATTEMPT_MS } from '../../src/request-sender.ts';
import { fetchTransport } from '../../src/runtime/fetch-transport.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import type { HttpRequest, Runtime } from '../../src/runtime.ts';
import { localServer, reply } from './local-server.ts';

/**
 * A wait's deadline bounds each request inside it: a poll that hangs is cut off at the deadline (given
 * at least MIN_ATTEMPT_MS), not left to run to the transport's own 30 s timeout, and no retry starts
 * after it. Real HTTP to a server that never answers the poll. The client's clock is the real one
 * plus the virtual sleeps (so a hang moves it, a backoff costs nothing); the test asserts the timeouts
 * the client gave each attempt and the outcome, never elapsed time.
 */
const queued = (id: string) => ({ object: 'job', id, type: 'contacts.bulk', status: 'queued', total: 1, processed: 0, failed: 0, errors: [], created_at: '2030-01-01T00:00:00Z', completed_at: null });

function clientFor(url: string) {
  const dispatcher = new Agent({ connections: 4 });
  const transport = undiciTransport({ dispatcher, timeoutMs: 30_000 });
  const attempts: HttpRequest[] = [];
  let slept = 0;
  const runtime: Runtime = {
    transport: (req) => {
      attempts.push(req);
      return transport(req);
    },
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw new Error('aborted');
      slept += ms;
    },
    now: () => Date.now() + slept,
    random: () => 0.5,
  };
  const client = new MessagingClient({ baseUrl: url, apiKey: 'sk_test_local_key_0001', runtime, limiters: new LimiterRegistry() });
  return { client, attempts, close: () => dispatcher.close() };
}

test('jobs.wait whose second poll hangs ends as timeout at its 2 s deadline, the poll bounded by the time left', async () => {
  const server = await localServer((_e, res, n) => {
    if (n === 1) reply(res, 200, { data: queued('job_1') });
    // later polls: never answered
  });
  const { client, attempts, close } = clientFor(server.url);
  const result = await client.jobs.wait('job_1', { timeoutMs: 2000 });
  await close();
  await server.close();
  expect(result).toMatchObject({ status: 'timeout', job: { id: 'job_1' } });
  // The first poll had the whole 2 s, the second what was left after a 1 s sleep; nothing retried after.
  expect(attempts).toHaveLength(2);
  expect(attempts[0].timeoutMs).toBeLessThanOrEqual(2000);
  expect(attempts[1].timeoutMs).toBeLessThanOrEqual(MIN_ATTEMPT_MS);
}, 20_000);

test('importAndWait whose polls hang reports the job unfinished (timeout) with its id, never a 30 s hang', async () => {
  const server = await localServer((e, res) => {
    if (e.method === 'POST') reply(res, 202, { data: queued('job_9') });
    // GET /jobs/job_9: never answered
  });
  const { client, attempts, close } = clientFor(server.url);
  const out = await client.contacts.importAndWait([{ email: 'a@example.com' }], { timeoutMs: 2000 });
  await close();
  await server.close();
  expect(out.waits).toEqual([expect.objectContaining({ jobId: 'job_9', result: expect.objectContaining({ status: 'timeout' }) })]);
  expect(out.totals).toMatchObject({ jobs: 1, unfinishedJobs: 1 });
  const polls = attempts.filter((a) => a.method === 'GET');
  expect(polls).toHaveLength(1);
  expect(polls[0].timeoutMs).toBeLessThanOrEqual(2000);
}, 20_000);

test('a request outside a wait keeps the transport’s own timeout (no deadline is invented)', async () => {
  const server = await localServer((_e, res) => reply(res, 200, { data: { rate_limit: 60 } }));
  const { client, attempts, close } = clientFor(server.url);
  await client.account.get();
  await close();
  await server.close();
  expect(attempts[0].timeoutMs).toBeUndefined();
});

test.each([
  ['undici', () => undiciTransport({ dispatcher: new Agent(), timeoutMs: 30_000 })],
  ['fetch', () => fetchTransport({ timeoutMs: 30_000 })],
])('the %s transport ends an attempt at the request’s own timeoutMs when it is tighter than its own', async (_name, make) => {
  const server = await localServer(() => undefined); // never answers
  const transport = make();
  const error = await transport({ method: 'GET', url: `${server.url}/jobs/job_1`, headers: {}, timeoutMs: 200 }).catch((e: unknown) => e);
  await server.close();
  expect(error).toMatchObject({ code: 'ATTEMPT_TIMEOUT', message: expect.stringContaining('200 ms') });
}, 20_000);
