/** §4 Idempotency-Key: replay, reuse with another body, in progress, release on failure, scoping, length. */
import { boot, call, em, expectError, ledger, summary, wa, useSandbox } from './helpers.ts';
import { until, VirtualClock } from './virtual-clock.ts';

const sb = useSandbox({ job_rows_per_second: 0 });

const batch = (idem: string, messages: unknown[] = [wa(), em()], key?: string) => call(sb, 'POST', '/messages/batch', { body: { messages }, idem, key });

test('§4 a replay returns the first answer byte for byte with Idempotent-Replay: true, and creates nothing', async () => {
  const first = await batch('k-1');
  expect(first.status).toBe(200);
  expect(first.headers['idempotent-replay']).toBeUndefined();
  const again = await batch('k-1');
  expect(again.status).toBe(200);
  expect(again.headers['idempotent-replay']).toBe('true');
  expect(again.text).toBe(first.text);
  expect(again.headers['x-request-id']).not.toBe(first.headers['x-request-id']);
  const s = await summary(sb);
  expect(s.messages).toBe(2);
  expect(s.messages_by_idempotency_key).toEqual({ 'acc_demo/k-1': 2 });
  expect(s.duplicates_detected).toBe(0);
});

test('§4 the body fingerprint ignores key order (canonical JSON)', async () => {
  await call(sb, 'POST', '/messages/batch', { raw: '{"messages":[{"channel":"whatsapp","to":"+4915112345678","body":"x"}]}', headers: { 'content-type': 'application/json', 'idempotency-key': 'order' } });
  const r = await call(sb, 'POST', '/messages/batch', { raw: '{ "messages" : [ {"body":"x","to":"+4915112345678","channel":"whatsapp"} ] }', headers: { 'content-type': 'application/json', 'idempotency-key': 'order' } });
  expect(r.headers['idempotent-replay']).toBe('true');
});

test('§4 the same key with a different body → 409 idempotency_key_reused, nothing sent', async () => {
  await batch('k-2', [wa()]);
  const r = await batch('k-2', [wa('+4915199999999')]);
  expectError(r, 409, 'idempotency_key_reused', 'Idempotency-Key', 'invalid_request_error');
  expect((await summary(sb)).messages).toBe(1);
});

test('§4 the same key on another route → 409 idempotency_key_reused', async () => {
  await call(sb, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }] }, idem: 'k-route' });
  expectError(await batch('k-route'), 409, 'idempotency_key_reused');
});

test('§4 the same key while the first request is still running → 409 idempotency_request_in_progress; later replay', async () => {
  const clock = new VirtualClock();
  const s2 = await boot({}, clock);
  try {
    const send = () => call(s2, 'POST', '/messages/batch', { body: { messages: [wa(), em()] }, idem: 'k-3' });
    s2.control.addFault({ route: 'POST /v1/messages/batch', kind: 'slow', delay_ms: 800, count: 1 });
    const release = clock.shut();
    const firstP = send();
    // The first request is in flight once the sandbox holds it.
    await until(() => clock.sleeps.length === 1, 'the first request to be held');
    const second = await send();
    expectError(second, 409, 'idempotency_request_in_progress', 'Idempotency-Key');
    release();
    const first = await firstP;
    expect(first.status).toBe(200);
    const third = await send();
    expect(third.headers['idempotent-replay']).toBe('true');
    expect(third.text).toBe(first.text);
    expect(s2.control.summary().messages).toBe(2);
  } finally {
    await s2.close();
  }
});

test('§4 a whole-call failure releases the key: a corrected retry with the same key runs', async () => {
  expectError(await call(sb, 'POST', '/messages/batch', { body: { messages: [] }, idem: 'k-4' }), 422, 'validation_failed', 'messages');
  const ok = await batch('k-4');
  expect(ok.status).toBe(200);
  expect(ok.headers['idempotent-replay']).toBeUndefined();
});

test('§4 a 402 is not stored: the identical call with the same key works after top-up', async () => {
  const key = 'sk_test_demo_no_credits';
  expectError(await batch('k-5', [wa()], key), 402, 'insufficient_credits');
  sb.control.configure({ accounts: [{ id: 'acc_no_credits', credits: 1 }] });
  const r = await batch('k-5', [wa()], key);
  expect(r.status).toBe(200);
  expect(r.headers['idempotent-replay']).toBeUndefined();
  expect(r.body.data[0].id).toMatch(/^msg_/);
});

test('§4 a batch where every element failed is a committed 200 and is replayed', async () => {
  const first = await batch('k-6', [wa('bad')]);
  const again = await batch('k-6', [wa('bad')]);
  expect(again.headers['idempotent-replay']).toBe('true');
  expect(again.text).toBe(first.text);
});

test('§4 keys are scoped per account', async () => {
  const a = await batch('shared', [wa()]);
  const b = await batch('shared', [wa('+4915100000000')], 'sk_test_demo_other_account');
  expect(b.status).toBe(200);
  expect(b.headers['idempotent-replay']).toBeUndefined();
  expect(a.body.data[0].id).not.toBe(b.body.data[0].id);
});

test('§4 the bulk import replays its 202 with the same job, and creates one job', async () => {
  const first = await call(sb, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }] }, idem: 'bulk-1' });
  const again = await call(sb, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }] }, idem: 'bulk-1' });
  expect(again.status).toBe(202);
  expect(again.headers['idempotent-replay']).toBe('true');
  expect(again.body.data.id).toBe(first.body.data.id);
  expect((await ledger(sb)).jobs).toHaveLength(1);
});

test('§4 POST /messages honours the key too', async () => {
  const body = { channel: 'whatsapp', to: ['+4915112345678'], body: 'x' };
  const first = await call(sb, 'POST', '/messages', { body, idem: 'm-1' });
  const again = await call(sb, 'POST', '/messages', { body, idem: 'm-1' });
  expect(again.headers['idempotent-replay']).toBe('true');
  expect(again.text).toBe(first.text);
  expect((await summary(sb)).messages).toBe(1);
});

test('§8 Idempotency-Key length: 255 accepted, 256 and empty → 422 param Idempotency-Key', async () => {
  expect((await batch('a'.repeat(255))).status).toBe(200);
  expectError(await batch('a'.repeat(256)), 422, 'validation_failed', 'Idempotency-Key');
  expectError(await batch(''), 422, 'validation_failed', 'Idempotency-Key');
  expect((await summary(sb)).messages).toBe(2);
});

test('§4 without a key, the same call twice sends twice (the ledger detects the duplicate)', async () => {
  await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()] } });
  await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()] } });
  const s = await summary(sb);
  expect(s.duplicates_detected).toBe(1);
  expect(s.duplicates[0]).toMatchObject({ account: 'acc_demo', channel: 'whatsapp', to: '+4915112345678', count: 2 });
});

test('§4 idempotency retention: after idempotency_retention_seconds the key is new again (sandbox clock)', async () => {
  const clock = new VirtualClock();
  const s2 = await boot({ idempotency_retention_seconds: 1 }, clock);
  try {
    const send = () => call(s2, 'POST', '/messages/batch', { body: { messages: [wa()] }, idem: 'ret' });
    expect((await send()).headers['idempotent-replay']).toBeUndefined();
    clock.advance(999);
    expect((await send()).headers['idempotent-replay']).toBe('true');
    clock.advance(1);
    const r = await send();
    expect(r.status).toBe(200);
    expect(r.headers['idempotent-replay']).toBeUndefined();
    expect(s2.control.summary().messages).toBe(2);
  } finally {
    await s2.close();
  }
});
