/** §8 per-key fixed-window rate limit and its headers. */
import { boot, call, expectError, many, phone, summary, wa, useSandbox } from './helpers.ts';
import { VirtualClock } from './virtual-clock.ts';

const W = 2;
const clock = new VirtualClock();
const sb = useSandbox({ window_seconds: W, accounts: [{ id: 'acc_rate_limited', rate_limit: 3 }] }, { clock });
/** Unix seconds at which the window holding `ms` ends. */
const windowEnd = (ms: number, w = W): number => (Math.floor(ms / 1000 / w) + 1) * w;

// Each test starts 500 ms into a window of its own.
beforeEach(() => clock.set(windowEnd(clock.now()) * 1000 + 500));

const RL = 'sk_test_demo_rate_limited';

test('§8 headers on every response: Limit, Remaining counting down, Reset = end of the aligned window', async () => {
  const r1 = await call(sb, 'GET', '/account', { key: RL });
  const expectedReset = windowEnd(clock.now());
  expect(r1.headers['x-ratelimit-limit']).toBe('3');
  expect(r1.headers['x-ratelimit-remaining']).toBe('2');
  expect(Number(r1.headers['x-ratelimit-reset'])).toBe(expectedReset);
  expect(r1.headers['x-ratelimit-reset']).toMatch(/^\d+$/);
  const r2 = await call(sb, 'GET', '/contacts', { key: RL });
  expect(r2.headers['x-ratelimit-remaining']).toBe('1');
  const r3 = await call(sb, 'GET', '/jobs/job_x', { key: RL });
  expect(r3.status).toBe(404);
  expect(r3.headers['x-ratelimit-remaining']).toBe('0');
  expect(r3.headers['retry-after']).toBeUndefined();
});

test('§8 over the ceiling → 429 rate_limit_exceeded with Retry-After; nothing processed; the next window works', async () => {
  for (let i = 0; i < 3; i++) expect((await call(sb, 'GET', '/account', { key: RL })).status).toBe(200);
  const before = (await summary(sb)).messages;
  const r = await call(sb, 'POST', '/messages/batch', { key: RL, body: { messages: [wa()] } });
  expectError(r, 429, 'rate_limit_exceeded', null, 'rate_limit_error');
  const reset = Number(r.headers['x-ratelimit-reset']);
  expect(reset).toBe(windowEnd(clock.now()));
  // 1.5 s are left in the window: Retry-After rounds up to whole seconds.
  expect(r.headers['retry-after']).toBe('2');
  expect(r.headers['x-ratelimit-remaining']).toBe('0');
  expect((await summary(sb)).messages).toBe(before);
  clock.set(reset * 1000 - 1);
  expect((await call(sb, 'POST', '/messages/batch', { key: RL, body: { messages: [wa()] } })).status).toBe(429);
  clock.set(reset * 1000);
  const after = await call(sb, 'POST', '/messages/batch', { key: RL, body: { messages: [wa()] } });
  expect(after.status).toBe(200);
  expect(after.headers['x-ratelimit-remaining']).toBe('2');
});

test('§8 a batch counts once against the rate limit (500 elements = one call)', async () => {
  const r = await call(sb, 'POST', '/messages/batch', { key: RL, body: { messages: many(500, (i) => wa(phone(i))) } });
  expect(r.status).toBe(200);
  expect(r.headers['x-ratelimit-remaining']).toBe('2');
  const m = await call(sb, 'POST', '/messages', { key: RL, body: { channel: 'whatsapp', to: [phone(1), phone(2), phone(3)], body: 'x' } });
  expect(m.headers['x-ratelimit-remaining']).toBe('1');
});

test('§8 the limit is per key: another key of another account has its own window', async () => {
  for (let i = 0; i < 3; i++) await call(sb, 'GET', '/account', { key: RL });
  expect((await call(sb, 'GET', '/account', { key: RL })).status).toBe(429);
  const other = await call(sb, 'GET', '/account');
  expect(other.status).toBe(200);
  expect(other.headers['x-ratelimit-limit']).toBe('600');
});

test('§8 the limit is per key even within one account', async () => {
  const s2 = await boot({
    window_seconds: W,
    accounts: [{ id: 'acc_two', rate_limit: 1, credits: 10 }],
    keys: [
      { key: 'sk_two_a', account: 'acc_two', scopes: [], label: 'a' },
      { key: 'sk_two_b', account: 'acc_two', scopes: [], label: 'b' },
    ],
  }, clock);
  try {
    expect((await call(s2, 'GET', '/account', { key: 'sk_two_a' })).status).toBe(200);
    expect((await call(s2, 'GET', '/account', { key: 'sk_two_a' })).status).toBe(429);
    expect((await call(s2, 'GET', '/account', { key: 'sk_two_b' })).status).toBe(200);
  } finally {
    await s2.close();
  }
});

test('§8 errors after authentication count too and carry the headers; 401s do not count', async () => {
  const e = await call(sb, 'POST', '/messages/batch', { key: RL, body: { messages: [] } });
  expect(e.status).toBe(422);
  expect(e.headers['x-ratelimit-remaining']).toBe('2');
  await call(sb, 'GET', '/account', { key: 'sk_test_unknown' });
  expect((await call(sb, 'GET', '/account', { key: RL })).headers['x-ratelimit-remaining']).toBe('1');
});

test('§8 the default window is 60 s aligned to the minute', async () => {
  const at = new VirtualClock(Date.UTC(2030, 0, 1, 12, 34, 56, 789));
  const s2 = await boot(undefined, at);
  try {
    const r = await call(s2, 'GET', '/account');
    expect(Number(r.headers['x-ratelimit-reset'])).toBe(Date.UTC(2030, 0, 1, 12, 35, 0) / 1000);
  } finally {
    await s2.close();
  }
});
