import { chunk, runChunks } from '../../src/chunking.ts';
import { ClockSkew } from '../../src/clock-skew.ts';
import { parseRetryAfter, RateLimitHeaderReader } from '../../src/headers.ts';
import { chunkIdempotencyKey, deriveIdempotencyKey, validateIdempotencyKey } from '../../src/idempotency.ts';
import { canonicalJson } from '../../src/canonical-json.ts';
import { normalizeBaseUrl } from '../../src/base-url.ts';
import { backoffDelay, decideRetry, DEFAULT_RETRY, RetryBudget } from '../../src/retry-policy.ts';
import { ApiError } from '../../src/errors.ts';
import { Paginator } from '../../src/pagination.ts';
import { mapRows } from '../../src/resources/batch-rows.ts';

/** One answer's headers read by a reader that has seen no other. */
const parseRateLimitHeaders = (headers: Record<string, string | undefined>, now: number) => new RateLimitHeaderReader().read(headers, now);

describe('chunk maps', () => {
  test('2,345 items make 5 chunks of ≤500 whose offsets cover every index once', () => {
    const items = Array.from({ length: 2345 }, (_, i) => i);
    const chunks = chunk(items, 500);
    expect(chunks.map((c) => c.items.length)).toEqual([500, 500, 500, 500, 345]);
    expect(chunks.map((c) => c.offset)).toEqual([0, 500, 1000, 1500, 2000]);
    expect(chunks.flatMap((c) => c.items.map((item, i) => c.offset + i - item))).toEqual(new Array(2345).fill(0));
  });

  test('an empty input makes no chunk, a bad size is refused', () => {
    expect(chunk([], 100)).toEqual([]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });

  test('rows with chunk-relative indexes map to caller indexes; a missing row is reported unknown with its key, not dropped', () => {
    const c = { chunk: 1, offset: 500, items: ['a', 'b', 'c'] };
    const call = { chunk: 1, idempotencyKey: 'k:chunk-1', replayed: false };
    const results = mapRows(c, { data: [{ index: 2, id: 'msg_c' }, { index: 0, error: { type: 'invalid_request_error', code: 'validation_failed', message: 'bad', param: 'to' } }] }, call);
    expect(results.map((r) => [r.index, r.status])).toEqual([[500, 'failed'], [501, 'unknown'], [502, 'sent']]);
    expect(results[0].status === 'failed' && results[0].error.code).toBe('validation_failed');
    // A row refused inside a 200 answer has no HTTP status of its own: 0, not a 422 made up from its code.
    expect(results[0].status === 'failed' && results[0].error.status).toBe(0);
    expect(results[1].status === 'unknown' && results[1].error.outcomeUnknown && results[1].call.idempotencyKey).toBe('k:chunk-1');
  });

  test('a chunk whose work reports an error stops the run: later chunks are skipped, earlier results kept', async () => {
    const chunks = chunk([0, 1, 2, 3, 4, 5], 2);
    const started: number[] = [];
    const { results, error } = await runChunks(
      chunks,
      1,
      async (c) => {
        started.push(c.chunk);
        return c.chunk === 1 ? { value: `failed ${c.chunk}`, error: new Error('boom') } : { value: `sent ${c.chunk}` };
      },
      (c) => `skipped ${c.chunk}`,
    );
    expect(started).toEqual([0, 1]);
    expect(results).toEqual(['sent 0', 'failed 1', 'skipped 2']);
    expect((error as Error).message).toBe('boom');
  });

  test('concurrency bounds the chunks in flight', async () => {
    let inFlight = 0;
    let most = 0;
    await runChunks(chunk(Array.from({ length: 10 }), 1), 3, async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setImmediate(r));
      inFlight -= 1;
      return { value: undefined };
    }, () => undefined);
    expect(most).toBe(3);
  });
});

describe('backoff and retry policy', () => {
  test('backoff grows ×2 from 0.5 s, stays within [ceiling/2, ceiling], caps at 8 s', () => {
    for (let retry = 0; retry < 8; retry++) {
      const ceiling = Math.min(8000, 500 * 2 ** retry);
      expect(backoffDelay(retry, DEFAULT_RETRY, () => 0)).toBe(ceiling / 2);
      expect(backoffDelay(retry, DEFAULT_RETRY, () => 0.999999)).toBeLessThanOrEqual(ceiling);
      expect(backoffDelay(retry, DEFAULT_RETRY, () => 0.999999)).toBeGreaterThan(ceiling * 0.99);
    }
  });

  const error = (code: string, retryAfter?: number) => new ApiError({ status: 0, type: 't', code, message: code, retryAfter });
  const fresh = { retries: 0, serverErrors: 0, rateLimited: 0 };

  test.each([
    ['rate_limit_exceeded', true, 'rate_limit'],
    ['internal_error', true, 'backoff'],
    ['idempotency_request_in_progress', true, 'backoff'],
    ['transport_error', true, 'backoff'],
    ['transport_error', false, 'stop'],
    ['idempotency_key_reused', true, 'stop'],
    ['insufficient_credits', true, 'stop'],
    ['validation_failed', true, 'stop'],
    ['subscription_expired', true, 'stop'],
    ['api_key_revoked', true, 'stop'],
    ['resource_not_found', true, 'stop'],
  ])('%s (idempotent: %s) → %s', (code, idempotent, kind) => {
    expect(decideRetry(error(code, 3), { ...fresh, serverErrors: code === 'internal_error' ? 1 : 0 }, DEFAULT_RETRY, idempotent).kind).toBe(kind);
  });

  test('500 is retried once, not twice', () => {
    expect(decideRetry(error('internal_error'), { retries: 1, serverErrors: 2, rateLimited: 0 }, DEFAULT_RETRY, true).kind).toBe('stop');
  });

  test('one rule for every 5xx, envelope or not: retried once, after its Retry-After when that is longer and at most 60 s', () => {
    const server = (status: number, code: string, retryAfter?: number) => new ApiError({ status, type: 't', code, message: code, retryAfter });
    for (const [status, code] of [[500, 'internal_error'], [502, 'transport_error'], [503, 'service_unavailable'], [503, 'transport_error'], [504, 'transport_error']] as const) {
      expect(decideRetry(server(status, code), { ...fresh, serverErrors: 1 }, DEFAULT_RETRY, true)).toEqual({ kind: 'backoff' });
      expect(decideRetry(server(status, code), { ...fresh, retries: 1, serverErrors: 2 }, DEFAULT_RETRY, true).kind).toBe('stop');
    }
    expect(decideRetry(server(503, 'service_unavailable', 2.5), { ...fresh, serverErrors: 1 }, DEFAULT_RETRY, true)).toEqual({ kind: 'backoff', atLeastMs: 2500 });
    expect(decideRetry(server(503, 'service_unavailable', 3600), { ...fresh, serverErrors: 1 }, DEFAULT_RETRY, true).kind).toBe('stop');
    expect(decideRetry(server(413, 'transport_error'), fresh, DEFAULT_RETRY, true).kind).toBe('stop');
    expect(decideRetry(server(429, 'transport_error', 2), fresh, DEFAULT_RETRY, true)).toEqual({ kind: 'rate_limit', waitSeconds: 2 });
  });

  test('429 waits the Retry-After seconds', () => {
    expect(decideRetry(error('rate_limit_exceeded', 7), fresh, DEFAULT_RETRY, true)).toEqual({ kind: 'rate_limit', waitSeconds: 7 });
  });

  test('the retry budget runs out under sustained failure and refills on success', () => {
    const budget = new RetryBudget(50);
    let spent = 0;
    while (budget.trySpend(true)) spent += 1;
    expect(spent).toBe(5);
    for (let i = 0; i < 10; i++) budget.refund();
    expect(budget.trySpend(true)).toBe(true);
    expect(budget.trySpend(true)).toBe(false);
  });
});

describe('header parsing and clock skew', () => {
  test('rate-limit headers parse; garbage becomes undefined, never NaN', () => {
    const h = parseRateLimitHeaders({ 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1700000060', 'retry-after': '12', date: 'Tue, 14 Nov 2023 22:13:20 GMT' }, 0);
    expect(h).toEqual({ limit: 60, remaining: 0, reset: 1700000060, retryAfter: 12, date: Date.parse('Tue, 14 Nov 2023 22:13:20 GMT') });
    const bad = parseRateLimitHeaders({ 'x-ratelimit-limit': 'lots', 'x-ratelimit-remaining': '-1', 'x-ratelimit-reset': '1.5', 'retry-after': 'soon', date: 'never' }, 0);
    expect(bad).toEqual({ limit: undefined, remaining: undefined, reset: undefined, retryAfter: undefined, date: undefined });
  });

  test("a sender's reader remembers the last Date it parsed, and reads every answer as a fresh reader does", () => {
    const reader = new RateLimitHeaderReader();
    const answers = ['Tue, 14 Nov 2023 22:13:20 GMT', 'Tue, 14 Nov 2023 22:13:20 GMT', 'Tue, 14 Nov 2023 22:13:21 GMT', undefined, 'garbled', 'Tue, 14 Nov 2023 22:13:21 GMT'].map((date, i) => ({
      'x-ratelimit-remaining': String(10 - i),
      'retry-after': 'Tue, 14 Nov 2023 22:13:30 GMT',
      date,
    }));
    const read = answers.map((headers) => reader.read(headers, 1_700_000_000_000));
    expect(read).toEqual(answers.map((headers) => parseRateLimitHeaders(headers, 1_700_000_000_000)));
    expect(read.map((h) => h.retryAfter)).toEqual([10, 10, 9, 10, 10, 9]); // without a Date (or an unreadable one), against the local clock
  });

  test('a count may have white space around its digits, and nothing else: empty, signed, spaced inside or past 2^53 is undefined', () => {
    const limit = (value: string) => parseRateLimitHeaders({ 'x-ratelimit-limit': value }, 0).limit;
    expect([' 60', '60 ', '\t7\n', '\u00a012\u3000', '007', '9007199254740991'].map(limit)).toEqual([60, 60, 7, 12, 7, 9007199254740991]);
    expect(['', '   ', '+5', '6 0', '5x', '\u0665', '9007199254740992', '1e3'].map(limit)).toEqual(Array(8).fill(undefined));
  });

  test('Retry-After as an HTTP date is relative to the server clock given', () => {
    const now = Date.parse('Tue, 14 Nov 2023 22:13:20 GMT');
    expect(parseRetryAfter('Tue, 14 Nov 2023 22:13:25 GMT', now)).toBe(5);
  });

  test('Retry-After in decimal seconds is seconds, never a date; garbage is undefined', () => {
    expect(parseRetryAfter('1.5', 1_700_000_000_000)).toBe(1.5);
    expect(parseRetryAfter(' 0 ', 0)).toBe(0);
    expect(parseRetryAfter('-1', 0)).toBeUndefined();
    expect(parseRetryAfter('1e3', 0)).toBeUndefined();
    expect(parseRetryAfter('', 0)).toBeUndefined();
  });

  test('an HTTP-date Retry-After is read against the response’s Date, not the local clock', () => {
    const headers = { date: 'Tue, 14 Nov 2023 22:13:20 GMT', 'retry-after': 'Tue, 14 Nov 2023 22:13:23 GMT' };
    expect(parseRateLimitHeaders(headers, Date.parse('Tue, 14 Nov 2023 23:13:20 GMT')).retryAfter).toBe(3); // local clock an hour ahead
  });

  test('a server 42.3 s ahead is estimated within a few ms from 1 s-resolution Date headers', () => {
    const skew = new ClockSkew();
    const trueSkew = 42_300;
    for (let local = 1_000_000; local < 1_000_000 + 5_000; local += 137) {
      const serverNow = local + 5 + trueSkew; // 5 ms one-way latency
      skew.observe(Math.floor(serverNow / 1000) * 1000, local, local + 10);
    }
    expect(skew.conservative).toBeLessThanOrEqual(trueSkew + 5);
    expect(skew.conservative).toBeGreaterThan(trueSkew - 20);
  });

  test('a clock jump restarts the estimate instead of producing an empty interval', () => {
    const skew = new ClockSkew();
    skew.observe(10_000, 10_000, 10_010);
    skew.observe(500_000, 10_100, 10_110);
    expect(skew.conservative).toBeGreaterThan(480_000);
  });
});

describe('idempotency keys', () => {
  test('chunk keys are distinct, the single-call key is the base, and no key exceeds 255', () => {
    expect(chunkIdempotencyKey('k', 0, 1)).toBe('k');
    expect(new Set([0, 1, 2].map((n) => chunkIdempotencyKey('k', n, 3)))).toEqual(new Set(['k:chunk-0', 'k:chunk-1', 'k:chunk-2']));
    const long = 'x'.repeat(255);
    expect(chunkIdempotencyKey(long, 7, 9).length).toBeLessThanOrEqual(255);
    expect(chunkIdempotencyKey(long, 7, 9)).not.toBe(chunkIdempotencyKey(long, 8, 9));
  });

  test('caller keys are validated: empty, 256 chars, spaces refused; 255 accepted', () => {
    expect(validateIdempotencyKey('a'.repeat(255))).toHaveLength(255);
    for (const bad of ['', 'a'.repeat(256), 'has space']) expect(() => validateIdempotencyKey(bad)).toThrow(ApiError);
  });

  test('derived keys depend on every part and the payload, not on key order', () => {
    const a = deriveIdempotencyKey('n8n', ['exec1', 'node', 0, 0], { b: 1, a: [1, 2] });
    expect(deriveIdempotencyKey('n8n', ['exec1', 'node', 0, 0], { a: [1, 2], b: 1 })).toBe(a);
    expect(deriveIdempotencyKey('n8n', ['exec2', 'node', 0, 0], { a: [1, 2], b: 1 })).not.toBe(a);
    expect(deriveIdempotencyKey('n8n', ['exec1', 'node', 0, 1], { a: [1, 2], b: 1 })).not.toBe(a);
    expect(deriveIdempotencyKey('n8n', ['exec1', 'node', 0, 0], { a: [2, 1], b: 1 })).not.toBe(a);
    expect(canonicalJson({ z: undefined, y: [undefined] })).toBe('{"y":[null]}');
  });
});

describe('base URL', () => {
  test.each([
    ['https://api.example.com/v1', 'https://api.example.com/v1'],
    ['https://api.example.com/v1/', 'https://api.example.com/v1'],
    ['http://127.0.0.1:4010/v1', 'http://127.0.0.1:4010/v1'],
    ['http://localhost:4010/v1//', 'http://localhost:4010/v1'],
    ['http://[::1]:4010/v1', 'http://[::1]:4010/v1'],
  ])('%s is accepted as %s', (input, expected) => expect(normalizeBaseUrl(input)).toBe(expected));

  test.each(['http://api.example.com/v1', 'ftp://x/v1', 'https://api.example.com', 'not a url', '', 'https://u:p@api.example.com/v1', 'https://api.example.com/v1?key=1'])(
    '%s is refused with invalid_base_url',
    (input) => expect(() => normalizeBaseUrl(input)).toThrow(expect.objectContaining({ code: 'invalid_base_url' })),
  );
});

describe('cursor guard', () => {
  test('the cursor is handed back as received and the walk stops at has_more false', async () => {
    const seen: (string | undefined)[] = [];
    const pages = [
      { data: [1, 2], meta: { has_more: true, next_cursor: 'opaque/+=1' } },
      { data: [3], meta: { has_more: false, next_cursor: null } },
    ];
    const paginator = new Paginator(async (cursor) => {
      seen.push(cursor);
      return pages[seen.length - 1];
    });
    expect(await paginator.toArray({ max: 100 })).toEqual([1, 2, 3]);
    expect(seen).toEqual([undefined, 'opaque/+=1']);
  });

  test('cursors are never compared: one that repeats is handed back as is, and the page cap ends an endless walk', async () => {
    const cursors: (string | undefined)[] = [];
    const paginator = new Paginator(
      async (cursor) => {
        cursors.push(cursor);
        return { data: [cursors.length], meta: { has_more: true, next_cursor: cursors.length % 2 ? 'a' : 'b' } };
      },
      undefined,
      4,
    );
    await expect(paginator.toArray({ max: 1000 })).rejects.toMatchObject({ code: 'page_cap_reached' });
    expect(cursors).toEqual([undefined, 'a', 'b', 'a']);
  });

  test('toArray needs a cap and honours it', async () => {
    const paginator = new Paginator(async () => ({ data: [1, 2, 3], meta: { has_more: false } }));
    expect(await paginator.toArray({ max: 2 })).toEqual([1, 2]);
    await expect(paginator.toArray({} as { max: number })).rejects.toMatchObject({ code: 'invalid_input' });
  });
});

describe('job row errors (element shape "not shown")', () => {
  test('nested, flat and unreadable elements are read without assuming one shape', async () => {
    const { readJobRowError } = await import('../../src/job-row-error.ts');
    expect(readJobRowError({ index: 4, error: { type: 't', code: 'validation_failed', message: 'bad', param: 'email' } })).toEqual({ index: 4, type: 't', code: 'validation_failed', message: 'bad', param: 'email' });
    expect(readJobRowError({ index: 1, code: 'validation_failed', message: 'flat' })).toMatchObject({ index: 1, code: 'validation_failed', message: 'flat' });
    expect(readJobRowError('row 3 failed')).toEqual({ index: undefined, type: undefined, code: undefined, message: undefined, param: undefined });
    expect(readJobRowError({ index: -1 }).index).toBeUndefined();
  });
});
