import { MessagingClient } from '../../src/client.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import type { HttpRequest } from '../../src/runtime.ts';
import { json, virtualRuntime } from './fake-runtime.ts';

/**
 * Policies on a virtual clock, against a scripted peer: exact timings that real time cannot give.
 * The same policies are exercised over real HTTP against the sandbox in the integration suites.
 */
const BASE = 'https://api.example.com/v1';
const KEY = 'sk_live_policy_test_key_123456';

function client(runtime: ReturnType<typeof virtualRuntime>['runtime'], extra: Partial<ConstructorParameters<typeof MessagingClient>[0]> = {}) {
  return new MessagingClient({ baseUrl: BASE, apiKey: KEY, runtime, limiters: new LimiterRegistry(), ...extra });
}

/** A fixed-window server: `limit` calls per `windowMs`, windows aligned to multiples of it. */
function windowedServer(limit: number, windowMs: number, handler: (req: HttpRequest) => ReturnType<typeof json> = () => json(200, { data: { rate_limit: limit } })) {
  const counts = new Map<number, number>();
  let rejected = 0;
  const respond = (req: HttpRequest, now: number) => {
    const window = Math.floor(now / windowMs);
    const used = (counts.get(window) ?? 0) + 1;
    counts.set(window, used);
    const reset = ((window + 1) * windowMs) / 1000;
    const headers = { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, limit - used)), 'x-ratelimit-reset': String(reset), date: new Date(now).toUTCString(), 'x-request-id': `req_${used}` };
    if (used > limit) {
      rejected += 1;
      return json(429, { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'slow down' } }, { ...headers, 'retry-after': String(Math.ceil(reset - now / 1000)) });
    }
    const response = handler(req);
    return { ...response, headers: { ...response.headers, ...headers } };
  };
  return { respond, rejected: () => rejected };
}

test('§8 pacing: a single process spends no 429 and waits exactly until the window resets', async () => {
  const server = windowedServer(3, 60_000);
  const v = virtualRuntime(server.respond, 1_700_000_010_000);
  const api = client(v.runtime);
  for (let i = 0; i < 10; i++) await api.account.get();
  expect(server.rejected()).toBe(0);
  expect(v.requests).toHaveLength(10);
  const at = v.requests.map((r) => r.at);
  // Requests 4 and 7 open the next windows: sent right after the reset, within the safety margin.
  expect(at[3]).toBeGreaterThanOrEqual(1_700_000_040_000);
  expect(at[3]).toBeLessThan(1_700_000_040_000 + 1_100);
  expect(at[6] - at[3]).toBeGreaterThanOrEqual(60_000);
  expect(at[6] - at[3]).toBeLessThan(61_100);
});

test('§8 429 honours Retry-After and the retry carries the same Idempotency-Key', async () => {
  let calls = 0;
  const v = virtualRuntime((_req, now) => {
    calls += 1;
    if (calls === 1) return json(429, { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'x' } }, { 'retry-after': '7', 'x-request-id': 'req_1' });
    return json(200, { data: [{ index: 0, id: 'msg_1' }] }, { 'x-request-id': `req_${calls}`, date: new Date(now).toUTCString() });
  });
  const out = await client(v.runtime).messages.sendBatch([{ channel: 'email', to: 'a@example.com', body: 'hi' }], { idempotencyKey: 'caller-key' });
  expect(out.sent).toBe(1);
  expect(v.requests[1].at - v.requests[0].at).toBeGreaterThanOrEqual(7000);
  expect(v.requests.map((r) => r.headers['idempotency-key'])).toEqual(['caller-key', 'caller-key']);
});

test('§7 500 internal_error is retried once with the same key, then surfaced', async () => {
  const v = virtualRuntime(() => json(500, { error: { type: 'api_error', code: 'internal_error', message: 'oops' } }, { 'x-request-id': 'req_500' }));
  const out = await client(v.runtime).messages.sendBatch([{ channel: 'email', to: 'a@example.com', body: 'hi' }]);
  expect(v.requests).toHaveLength(2);
  expect(new Set(v.requests.map((r) => r.headers['idempotency-key'])).size).toBe(1);
  expect(out.results[0]).toMatchObject({ status: 'unknown', error: { code: 'internal_error', requestId: 'req_500', status: 500, outcomeUnknown: true } });
});

test('§7 an HTML 502 from a proxy is a transport error with status and request id, retried under the key', async () => {
  let calls = 0;
  const v = virtualRuntime(() => {
    calls += 1;
    return calls === 1
      ? { status: 502, headers: { 'content-type': 'text/html', 'x-request-id': 'req_proxy' }, body: '<html>Bad Gateway</html>' }
      : json(200, { data: [{ index: 0, id: 'msg_1' }] });
  });
  const out = await client(v.runtime).messages.sendBatch([{ channel: 'email', to: 'a@example.com', body: 'hi' }]);
  expect(calls).toBe(2);
  expect(out.sent).toBe(1);
});

test('§7 a truncated 200 body is a transport error, not a crash, and is retried under the same key', async () => {
  let calls = 0;
  const v = virtualRuntime(() => {
    calls += 1;
    return calls === 1 ? { status: 200, headers: {}, body: '{"data":[{"index":0,"id":"msg_' } : json(200, { data: [{ index: 0, id: 'msg_1' }] }, { 'idempotent-replay': 'true' });
  });
  const out = await client(v.runtime).messages.sendBatch([{ channel: 'email', to: 'a@example.com', body: 'hi' }]);
  expect(out.results[0]).toMatchObject({ status: 'sent', id: 'msg_1', call: { replayed: true } });
  expect(v.requests[0].headers['idempotency-key']).toBe(v.requests[1].headers['idempotency-key']);
});

test('a read is retried after a network error; a write without a key would not be (ours always carry one)', async () => {
  let calls = 0;
  const v = virtualRuntime(() => {
    calls += 1;
    if (calls === 1) throw new Error('socket hang up');
    return json(200, { data: { rate_limit: 60 } });
  });
  expect(await client(v.runtime).account.get()).toEqual({ rate_limit: 60 });
  expect(calls).toBe(2);
});

test('the bound on waiting: a reset too far away ends in rate_limit_wait_exceeded, without a 429 spent', async () => {
  const server = windowedServer(1, 60_000);
  const v = virtualRuntime(server.respond, 1_700_000_000_000);
  const api = client(v.runtime, { maxWaitMs: 5_000 });
  await api.account.get();
  await expect(api.account.get()).rejects.toMatchObject({ code: 'rate_limit_wait_exceeded' });
  expect(server.rejected()).toBe(0);
  expect(v.requests).toHaveLength(1);
});

test('the API key appears only in the Authorization header, never in an error', async () => {
  const v = virtualRuntime(() => json(401, { error: { type: 'authentication_error', code: 'invalid_api_key', message: `Key ${KEY} is unknown`, doc_url: 'https://docs/x' } }));
  const error = await client(v.runtime).account.get().catch((e: unknown) => e);
  expect(error).toMatchObject({ code: 'invalid_api_key', status: 401 });
  expect(JSON.stringify(error)).not.toContain(KEY);
  expect(String((error as Error).message)).not.toContain(KEY);
  expect(String((error as Error).stack)).not.toContain(KEY);
  expect(v.requests[0].headers.authorization).toBe(`Bearer ${KEY}`);
  expect(v.requests[0].url).not.toContain(KEY);
});

test('job waiting: finished by completed_at whatever the status name; timeout and abort are distinct results', async () => {
  let polls = 0;
  const v = virtualRuntime(() => {
    polls += 1;
    return json(200, { data: { object: 'job', id: 'job_1', status: polls < 4 ? 'queued' : 'some_new_state', total: 10, processed: Math.min(10, polls * 3), failed: 0, errors: [], created_at: 'x', completed_at: polls >= 4 ? '2026-01-01T00:00:00Z' : null } });
  });
  const progress: number[] = [];
  const done = await client(v.runtime).jobs.wait('job_1', { timeoutMs: 60_000, onProgress: (j) => progress.push(j.processed) });
  expect(done.status).toBe('completed');
  expect(progress).toEqual([3, 6, 9, 10]);
  // Delays grow ×2 (random fixed at 0.5 → jitter factor 1) but stop 5% (+50 ms) past the end the counters
  // forecast: after 3→6 rows in 1 s, 4 rows are 1333 ms away; after 6→9 in 1450 ms, 1 row is 483 ms away.
  expect(v.sleeps).toEqual([1000, (4000 / 3) * 1.05 + 50, (1450 / 3) * 1.05 + 50]);

  polls = -100;
  const timedOut = await client(v.runtime).jobs.wait('job_1', { timeoutMs: 2_500 });
  expect(timedOut.status).toBe('timeout');

  const controller = new AbortController();
  controller.abort();
  expect((await client(v.runtime).jobs.wait('job_1', { timeoutMs: 60_000, signal: controller.signal })).status).toBe('aborted');
});
