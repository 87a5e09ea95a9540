/** Fault injection: every kind, schedules, and exactly-once effects with idempotency. */
import { ledgerRows } from '../support/ledger-rows.ts';
import { request } from 'undici';
import { boot, call, em, expectError, ledger, summary, wa, useSandbox } from './helpers.ts';
import { VirtualClock } from './virtual-clock.ts';

const sb = useSandbox({ job_rows_per_second: 0 });

const ROUTE = 'POST /v1/messages/batch';
const addFault = async (rule: Record<string, unknown>) => {
  const r = await call(sb, 'POST', '/__sandbox/faults', { key: null, body: rule });
  expect(r.status).toBe(201);
  expect(r.body.id).toMatch(/^flt_/);
  return r.body;
};
const batch = (idem?: string) => call(sb, 'POST', '/messages/batch', { body: { messages: [wa(), em()] }, idem });
/** Resolves to 'reset' when the server destroys the socket without an answer. */
const batchRaw = async (idem?: string): Promise<'reset' | number> => {
  try {
    const r = await request(`${sb.url}/messages/batch`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_demo_ok', 'content-type': 'application/json', ...(idem ? { 'idempotency-key': idem } : {}) },
      body: JSON.stringify({ messages: [wa(), em()] }),
    });
    await r.body.text();
    return r.statusCode;
  } catch {
    return 'reset';
  }
};

test('fault error_500_before_commit: 500 internal_error, nothing happens, the key is released', async () => {
  await addFault({ route: ROUTE, kind: 'error_500_before_commit' });
  expectError(await batch('f-1'), 500, 'internal_error', null, 'api_error');
  expect((await summary(sb)).messages).toBe(0);
  const retry = await batch('f-1');
  expect(retry.status).toBe(200);
  expect(retry.headers['idempotent-replay']).toBeUndefined();
  expect((await summary(sb)).messages_by_idempotency_key).toEqual({ 'acc_demo/f-1': 2 });
});

test('fault error_500_after_commit: effects recorded once; the retry replays the committed answer', async () => {
  await addFault({ route: ROUTE, kind: 'error_500_after_commit' });
  expectError(await batch('f-2'), 500, 'internal_error');
  const l = await ledger(sb);
  expect(l.messages).toHaveLength(2);
  const retry = await batch('f-2');
  expect(retry.status).toBe(200);
  expect(retry.headers['idempotent-replay']).toBe('true');
  expect(retry.body.data.map((d: any) => d.id)).toEqual(l.messages.map((m: any) => m.id));
  const s = await summary(sb);
  expect(s.messages).toBe(2);
  expect(s.duplicates_detected).toBe(0);
});

test('fault error_500_after_commit without a key: a blind retry duplicates (the ledger shows it)', async () => {
  await addFault({ route: ROUTE, kind: 'error_500_after_commit' });
  expect((await batch()).status).toBe(500);
  expect((await batch()).status).toBe(200);
  expect((await summary(sb)).duplicates_detected).toBe(2);
});

test('fault reset_before_commit: the socket is destroyed, nothing happens, the key is released', async () => {
  await addFault({ route: ROUTE, kind: 'reset_before_commit' });
  expect(await batchRaw('f-3')).toBe('reset');
  expect((await summary(sb)).messages).toBe(0);
  const retry = await batch('f-3');
  expect(retry.status).toBe(200);
  expect(retry.headers['idempotent-replay']).toBeUndefined();
  expect((await summary(sb)).messages).toBe(2);
});

test('fault reset_after_commit: response lost, exactly one ledger effect, the retry replays', async () => {
  await addFault({ route: ROUTE, kind: 'reset_after_commit' });
  expect(await batchRaw('f-4')).toBe('reset');
  const l = await ledger(sb);
  expect(l.messages).toHaveLength(2);
  const retry = await batch('f-4');
  expect(retry.status).toBe(200);
  expect(retry.headers['idempotent-replay']).toBe('true');
  expect(retry.body.data.map((d: any) => d.id)).toEqual(l.messages.map((m: any) => m.id));
  expect((await summary(sb)).messages_by_idempotency_key).toEqual({ 'acc_demo/f-4': 2 });
});

test('fault reset_after_commit on the bulk import: one job, the retry returns the same job', async () => {
  await addFault({ route: 'POST /v1/contacts/bulk', kind: 'reset_after_commit' });
  const body = { contacts: [{ email: 'a@example.com' }] };
  await expect(request(`${sb.url}/contacts/bulk`, { method: 'POST', headers: { authorization: 'Bearer sk_test_demo_ok', 'content-type': 'application/json', 'idempotency-key': 'j-1' }, body: JSON.stringify(body) })).rejects.toThrow();
  const retry = await call(sb, 'POST', '/contacts/bulk', { body, idem: 'j-1' });
  expect(retry.status).toBe(202);
  expect(retry.headers['idempotent-replay']).toBe('true');
  const l = await ledger(sb);
  expect(l.jobs).toHaveLength(1);
  expect(retry.body.data.id).toBe(l.jobs[0].id);
});

test('fault slow: the request is held for delay_ms on the sandbox clock, then processed; the next one is not held', async () => {
  const clock = new VirtualClock();
  const s2 = await boot({}, clock);
  try {
    s2.control.addFault({ route: ROUTE, kind: 'slow', delay_ms: 600, count: 1 });
    const arrived = clock.now();
    const held = await call(s2, 'POST', '/messages/batch', { body: { messages: [wa()] } });
    expect(held.status).toBe(200);
    expect(clock.sleeps).toEqual([600]);
    const next = await call(s2, 'POST', '/messages/batch', { body: { messages: [wa()] } });
    expect(next.status).toBe(200);
    expect(clock.sleeps).toEqual([600]);
    // Processed after the hold: the held message was created 600 ms after it arrived, like the next one.
    expect(ledgerRows(s2).messages.map((m) => Date.parse(m.created_at) - arrived)).toEqual([600, 600]);
  } finally {
    await s2.close();
  }
});

test('fault rate_limit_429: forced 429 with the given Retry-After; nothing processed', async () => {
  await addFault({ route: ROUTE, kind: 'rate_limit_429', retry_after: 7, count: 2 });
  for (let i = 0; i < 2; i++) {
    const r = await batch('rl');
    expectError(r, 429, 'rate_limit_exceeded', null, 'rate_limit_error');
    expect(r.headers['retry-after']).toBe('7');
    expect(r.headers['x-ratelimit-remaining']).toBe('0');
  }
  expect((await summary(sb)).messages).toBe(0);
  expect((await batch('rl')).status).toBe(200);
});

test('fault schedules: skip lets the first n pass, count affects the next n, every hits every nth', async () => {
  await addFault({ route: 'GET /v1/account', kind: 'error_500_before_commit', skip: 1, count: 2 });
  const s1 = [];
  for (let i = 0; i < 5; i++) s1.push((await call(sb, 'GET', '/account')).status);
  expect(s1).toEqual([200, 500, 500, 200, 200]);
  await call(sb, 'DELETE', '/__sandbox/faults', { key: null });
  await addFault({ route: 'GET /v1/contacts', kind: 'error_500_after_commit', every: 3 });
  const s2 = [];
  for (let i = 0; i < 7; i++) s2.push((await call(sb, 'GET', '/contacts')).status);
  expect(s2).toEqual([200, 200, 500, 200, 200, 500, 200]);
  const listed = (await call(sb, 'GET', '/__sandbox/faults', { key: null })).body.faults;
  expect(listed).toHaveLength(1);
  expect(listed[0]).toMatchObject({ route: 'GET /v1/contacts', kind: 'error_500_after_commit', every: 3, seen: 7, fired: 2 });
});

test('fault routes: * matches the id segment; other routes are untouched', async () => {
  await addFault({ route: 'GET /v1/jobs/*', kind: 'error_500_before_commit', count: 1 });
  expect((await call(sb, 'GET', '/account')).status).toBe(200);
  expect((await call(sb, 'GET', '/jobs/job_anything')).status).toBe(500);
  expect((await call(sb, 'GET', '/jobs/job_anything')).status).toBe(404);
});

test('faults: DELETE clears; invalid rules are refused with the envelope', async () => {
  await addFault({ route: ROUTE, kind: 'error_500_before_commit' });
  expect((await call(sb, 'DELETE', '/__sandbox/faults', { key: null })).status).toBe(200);
  expect((await call(sb, 'GET', '/__sandbox/faults', { key: null })).body.faults).toEqual([]);
  expect((await batch()).status).toBe(200);
  expectError(await call(sb, 'POST', '/__sandbox/faults', { key: null, body: { route: ROUTE, kind: 'explode' } }), 400, 'validation_failed', 'kind');
  expectError(await call(sb, 'POST', '/__sandbox/faults', { key: null, body: { route: 'nonsense', kind: 'slow' } }), 400, 'validation_failed', 'route');
  expectError(await call(sb, 'POST', '/__sandbox/faults', { key: null, body: { route: ROUTE, kind: 'slow', count: 0 } }), 400, 'validation_failed', 'count');
});

test('faults are matched only by requests that pass authentication', async () => {
  await addFault({ route: ROUTE, kind: 'error_500_before_commit' });
  expect((await call(sb, 'POST', '/messages/batch', { key: 'sk_nope', body: { messages: [wa()] } })).status).toBe(401);
  expect((await batch()).status).toBe(500);
});

test('programmatic control mirrors the HTTP routes', async () => {
  const rule = sb.control.addFault({ route: ROUTE, kind: 'error_500_after_commit' });
  expect(rule).toMatchObject({ id: expect.stringMatching(/^flt_/), seen: 0, fired: 0 });
  expect((await batch('p-1')).status).toBe(500);
  expect(sb.control.faults()[0]).toMatchObject({ fired: 1, seen: 1 });
  expect(ledgerRows(sb).messages).toHaveLength(2);
  expect(sb.control.summary().messages).toBe(2);
  sb.control.clearFaults();
  expect(sb.control.faults()).toEqual([]);
});
