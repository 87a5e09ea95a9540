/**
 * An error carries an HTTP status only when an answer came with one: a limit of the client's own (the
 * rate wait's bound, the retry budget) and a row refused inside a 200 answer have none, and every
 * surface shows none for them (httpStatusOf → null; the node's details.status, the action's results).
 */
import { MessagingClient } from '../../src/client.ts';
import { ApiError } from '../../src/errors.ts';
import { describeError, httpStatusOf } from '../../src/error-wording.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import { json, virtualRuntime } from './fake-runtime.ts';

const BASE = 'https://api.example.com/v1';
const KEY = 'sk_live_honest_status_key_123456';

test('retries stopped by the budget: no HTTP status of its own; the last answer’s is named in the message', async () => {
  const v = virtualRuntime(() => json(503, { error: { type: 'api_error', code: 'internal_error', message: 'down for a moment' } }));
  const api = new MessagingClient({ baseUrl: BASE, apiKey: KEY, runtime: v.runtime, limiters: new LimiterRegistry() });
  let error: unknown;
  for (let call = 0; call < 200 && !(error instanceof ApiError && error.code === 'retry_budget_exhausted'); call++) {
    error = await api.account.get().then(() => undefined, (e: unknown) => e);
  }
  expect(error).toMatchObject({ code: 'retry_budget_exhausted', status: 0 });
  expect(httpStatusOf(error as ApiError)).toBeNull();
  expect((error as ApiError).message).toMatch(/last: HTTP 503 internal_error: down for a moment/);
});

test('the rate wait’s bound: no HTTP status, though 429s led there', async () => {
  const v = virtualRuntime((_req, now) => json(429, { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'slow down' } }, { 'retry-after': '3600', 'x-ratelimit-reset': String(Math.ceil(now / 1000) + 3600) }));
  const api = new MessagingClient({ baseUrl: BASE, apiKey: KEY, runtime: v.runtime, limiters: new LimiterRegistry(), maxWaitMs: 5_000 });
  const error = await api.account.get().then(() => undefined, (e: unknown) => e);
  expect(error).toMatchObject({ code: 'rate_limit_wait_exceeded', status: 0 });
  expect(httpStatusOf(error as ApiError)).toBeNull();
});

test('a refused row of a 200 batch answer: status 0, no HTTP status shown; a refused call keeps its own', async () => {
  const v = virtualRuntime(() => json(200, { data: [{ index: 0, error: { type: 'invalid_request_error', code: 'validation_failed', message: 'to is not a phone number', param: 'to' } }] }));
  const api = new MessagingClient({ baseUrl: BASE, apiKey: KEY, runtime: v.runtime, limiters: new LimiterRegistry() });
  const out = await api.messages.sendBatch([{ channel: 'whatsapp', to: 'x', body: 'hi' }], { idempotencyKey: 'honest-1' });
  const row = out.results[0]!;
  expect(row).toMatchObject({ status: 'failed', wholeCall: false, error: { code: 'validation_failed', status: 0 } });
  expect(httpStatusOf((row as { error: ApiError }).error)).toBeNull();
  expect(describeError((row as { error: ApiError }).error)).not.toMatch(/\b422\b|HTTP/);
  expect(httpStatusOf(new ApiError({ status: 402, type: 'payment_error', code: 'insufficient_credits', message: 'no credit' }))).toBe(402);
});
