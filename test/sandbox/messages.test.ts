/** §2 message elements, §4 POST /messages/batch, POST /messages, GET /messages/{id}; §7 credits, plan, sender. */
import { boot, call, em, expectError, ledger, many, phone, summary, wa, useSandbox } from './helpers.ts';

const sb = useSandbox();

const send = (messages: unknown, key?: string) => call(sb, 'POST', '/messages/batch', { body: { messages }, key });
const rowError = (row: any, code: string, param?: string) => {
  expect(row.id).toBeUndefined();
  expect(row.error.code).toBe(code);
  if (param) expect(row.error.param).toBe(param);
  expect(typeof row.error.type).toBe('string');
  expect(typeof row.error.message).toBe('string');
};

describe('§4 POST /messages/batch', () => {
  test('§4 batch returns 200 with one row per element, ids prefixed msg_, no meta', async () => {
    const r = await send([wa(), em()]);
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['data']);
    expect(r.body.data).toHaveLength(2);
    expect(r.body.data[0]).toEqual({ index: 0, id: expect.stringMatching(/^msg_[A-Za-z0-9]+$/) });
    expect(r.body.data[1]).toEqual({ index: 1, id: expect.stringMatching(/^msg_[A-Za-z0-9]+$/) });
  });

  test('§4 batch returns 200 when every element failed, and nothing is created or spent', async () => {
    const r = await send([{ channel: 'sms', to: 'x', body: 'y' }, wa('12345'), em('not-an-email')]);
    expect(r.status).toBe(200);
    expect(r.body.meta).toBeUndefined();
    rowError(r.body.data[0], 'validation_failed', 'channel');
    rowError(r.body.data[1], 'validation_failed', 'to');
    rowError(r.body.data[2], 'validation_failed', 'to');
    expect(r.body.data.map((d: any) => d.index)).toEqual([0, 1, 2]);
    expect((await call(sb, 'GET', '/account')).body.data.credits).toBe(10000);
    expect((await ledger(sb)).messages).toEqual([]);
  });

  test('§4 a failed element never discards the others', async () => {
    const r = await send([wa(), { channel: 'whatsapp', to: '+4915112345678' }, em()]);
    expect(r.status).toBe(200);
    expect(r.body.data[0].id).toMatch(/^msg_/);
    rowError(r.body.data[1], 'validation_failed', 'body');
    expect(r.body.data[2].id).toMatch(/^msg_/);
    const rows = (await ledger(sb)).messages;
    expect(rows.map((m: any) => [m.request_id, m.element_index])).toEqual([[r.headers['x-request-id'], 0], [r.headers['x-request-id'], 2]]);
  });

  test('§4 a batch of 500 elements is accepted', async () => {
    const r = await send(many(500, (i) => wa(phone(i))));
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveLength(500);
    expect(r.body.data[499]).toEqual({ index: 499, id: expect.stringMatching(/^msg_/) });
    expect(new Set(r.body.data.map((d: any) => d.id)).size).toBe(500);
  });

  test('§8 a batch of 501 elements → 422 validation_failed param messages, nothing sent', async () => {
    expectError(await send(many(501, (i) => wa(phone(i)))), 422, 'validation_failed', 'messages', 'invalid_request_error');
    expect((await summary(sb)).messages).toBe(0);
  });

  test('§4 outer shape: empty array, missing, not an array → 422 param messages', async () => {
    expectError(await send([]), 422, 'validation_failed', 'messages');
    expectError(await call(sb, 'POST', '/messages/batch', { body: {} }), 422, 'validation_failed', 'messages');
    expectError(await send({ channel: 'whatsapp' }), 422, 'validation_failed', 'messages');
    expectError(await send('x'), 422, 'validation_failed', 'messages');
  });

  test('§4 unknown top-level field → 422 naming it', async () => {
    expectError(await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()], dry_run: true } }), 422, 'validation_failed', 'dry_run');
    const two = await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()], a: 1, b: 2 } });
    expectError(two, 422, 'validation_failed', null);
    expect(two.body.error.message).toMatch(/"a".*"b"/);
  });
});

describe('§2 message element validation', () => {
  test('§2 whatsapp refuses subject by name', async () => {
    const r = await send([{ ...wa(), subject: 'Hi' }]);
    rowError(r.body.data[0], 'validation_failed', 'subject');
    expect(r.body.data[0].error.type).toBe('invalid_request_error');
  });
  test('§2 email takes subject and an HTML body', async () => {
    const r = await send([em('bob@example.org', '<h1>Hello</h1><p>there</p>', 'Greetings')]);
    const id = r.body.data[0].id;
    const m = await call(sb, 'GET', `/messages/${id}`);
    expect(m.status).toBe(200);
    expect(m.body.data).toEqual({
      object: 'message', id, channel: 'email', to: 'bob@example.org', subject: 'Greetings', body: '<h1>Hello</h1><p>there</p>', status: 'sent', created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/),
    });
  });
  test('§2 email without subject is fine', async () => {
    const r = await send([{ channel: 'email', to: 'c@example.com', body: 'plain' }]);
    expect(r.body.data[0].id).toMatch(/^msg_/);
  });
  test('§2 a field not belonging to the channel is refused by name, never ignored', async () => {
    const r = await send([{ ...wa(), template: 'x' }, { ...em(), media_url: 'http://x' }, { ...wa(), To: '+4915112345678' }]);
    rowError(r.body.data[0], 'validation_failed', 'template');
    rowError(r.body.data[1], 'validation_failed', 'media_url');
    rowError(r.body.data[2], 'validation_failed', 'To');
  });
  test('§2 unknown channel → validation_failed naming channel', async () => {
    const r = await send([{ channel: 'sms', to: '+4915112345678', body: 'x' }, { channel: 'WhatsApp', to: '+4915112345678', body: 'x' }]);
    rowError(r.body.data[0], 'validation_failed', 'channel');
    rowError(r.body.data[1], 'validation_failed', 'channel');
  });
  test('§2 required fields: channel, to, body', async () => {
    const r = await send([{ to: '+4915112345678', body: 'x' }, { channel: 'whatsapp', body: 'x' }, { channel: 'email', to: 'a@example.com' }, { channel: 'email', to: 'a@example.com', body: '  ' }]);
    rowError(r.body.data[0], 'validation_failed', 'channel');
    rowError(r.body.data[1], 'validation_failed', 'to');
    rowError(r.body.data[2], 'validation_failed', 'body');
    rowError(r.body.data[3], 'validation_failed', 'body');
  });
  test('§2 wrong types name the field', async () => {
    const r = await send([{ channel: 1, to: 'x', body: 'y' }, { channel: 'whatsapp', to: 4915112345678, body: 'y' }, { channel: 'whatsapp', to: '+4915112345678', body: ['y'] }, { ...em(), subject: 5 }, null, 'x', [1]]);
    rowError(r.body.data[0], 'validation_failed', 'channel');
    rowError(r.body.data[1], 'validation_failed', 'to');
    rowError(r.body.data[2], 'validation_failed', 'body');
    rowError(r.body.data[3], 'validation_failed', 'subject');
    for (const i of [4, 5, 6]) rowError(r.body.data[i], 'validation_failed');
  });
  test('§2 whatsapp needs international format; email needs an address', async () => {
    const bad = ['004915112345678', '+0151123456', '+49 151 1234567', '+12345', '4915112345678', '+4915112345678999999'];
    const r = await send(bad.map((to) => wa(to)));
    r.body.data.forEach((row: any) => rowError(row, 'validation_failed', 'to'));
    const r2 = await send(['a@', '@b.com', 'a b@c.com', 'a@b', 'a@b.c'].map((to) => em(to)));
    r2.body.data.forEach((row: any) => rowError(row, 'validation_failed', 'to'));
    const good = await send([wa('+14155550123'), em('first.last+tag@sub.example.co.uk')]);
    expect(good.body.data.every((d: any) => d.id)).toBe(true);
  });
});

describe('§7 plan, sender and credits in a batch', () => {
  test('§7 channel_not_in_plan is an element error (403 family) in a batch; email still goes out', async () => {
    const r = await send([wa(), em()], 'sk_test_demo_no_whatsapp');
    expect(r.status).toBe(200);
    rowError(r.body.data[0], 'channel_not_in_plan', 'channel');
    expect(r.body.data[0].error.type).toBe('permission_error');
    expect(r.body.data[1].id).toMatch(/^msg_/);
  });
  test('§7 channel_not_in_plan only gates sending: reading works on every channel', async () => {
    const s = await send([wa()]);
    const s2 = await boot({ accounts: [{ id: 'acc_x', credits: 10, plan: { channels: ['whatsapp', 'email'] } }], keys: [{ key: 'sk_x', account: 'acc_x', scopes: ['messages:write'], label: 'x' }] });
    try {
      const sent = await call(s2, 'POST', '/messages/batch', { key: 'sk_x', body: { messages: [wa()] } });
      s2.control.configure({ accounts: [{ id: 'acc_x', plan: { channels: ['email'] } }] });
      const read = await call(s2, 'GET', `/messages/${sent.body.data[0].id}`, { key: 'sk_x' });
      expect(read.status).toBe(200);
      expect(read.body.data.channel).toBe('whatsapp');
      rowError((await call(s2, 'POST', '/messages/batch', { key: 'sk_x', body: { messages: [wa()] } })).body.data[0], 'channel_not_in_plan', 'channel');
    } finally {
      await s2.close();
    }
    expect(s.status).toBe(200);
  });
  test('§7 no_sender_available is an element error: nothing sent, no credit spent', async () => {
    const before = (await call(sb, 'GET', '/account', { key: 'sk_test_demo_no_sender' })).body.data.credits;
    const r = await send([wa(), em()], 'sk_test_demo_no_sender');
    expect(r.status).toBe(200);
    rowError(r.body.data[0], 'no_sender_available', 'channel');
    rowError(r.body.data[1], 'no_sender_available', 'channel');
    expect((await call(sb, 'GET', '/account', { key: 'sk_test_demo_no_sender' })).body.data.credits).toBe(before);
    expect((await ledger(sb)).messages).toEqual([]);
  });
  test('§7 insufficient_credits → 402 for the whole batch; retrying the identical call after top-up works', async () => {
    const messages = [wa(), em()];
    const r = await send(messages, 'sk_test_demo_no_credits');
    expectError(r, 402, 'insufficient_credits', null, 'invalid_request_error');
    expect((await ledger(sb)).messages).toEqual([]);
    await call(sb, 'POST', '/__sandbox/config', { key: null, body: { accounts: [{ id: 'acc_no_credits', credits: 2 }] } });
    const again = await send(messages, 'sk_test_demo_no_credits');
    expect(again.status).toBe(200);
    expect(again.body.data.every((d: any) => d.id)).toBe(true);
    expect((await call(sb, 'GET', '/account', { key: 'sk_test_demo_no_credits' })).body.data.credits).toBe(0);
    expectError(await send([wa()], 'sk_test_demo_no_credits'), 402, 'insufficient_credits');
    await call(sb, 'POST', '/__sandbox/config', { key: null, body: { accounts: [{ id: 'acc_no_credits', credits: 0 }] } });
  });
  test('§7 credits: one per message created; failed elements cost nothing; exactly enough credit works', async () => {
    const s2 = await boot({ accounts: [{ id: 'acc_c', credits: 2 }], keys: [{ key: 'sk_c', account: 'acc_c', scopes: ['messages:write'], label: 'c' }] });
    try {
      const r = await call(s2, 'POST', '/messages/batch', { key: 'sk_c', body: { messages: [wa(), wa('bad'), em()] } });
      expect(r.status).toBe(200);
      expect((await call(s2, 'GET', '/account', { key: 'sk_c' })).body.data.credits).toBe(0);
    } finally {
      await s2.close();
    }
  });
});

describe('§4 POST /messages (sandbox request shape: channel, to[], subject?, body)', () => {
  const post = (body: unknown, key?: string) => call(sb, 'POST', '/messages', { body, key });
  test('§4 one message to several recipients: 200 rows with index, to, id; no meta', async () => {
    const r = await post({ channel: 'whatsapp', to: ['+4915112345678', '+4915112345679'], body: 'hi' });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(['data']);
    expect(r.body.data).toEqual([
      { index: 0, to: '+4915112345678', id: expect.stringMatching(/^msg_/) },
      { index: 1, to: '+4915112345679', id: expect.stringMatching(/^msg_/) },
    ]);
    const rows = (await ledger(sb)).messages;
    expect(rows.map((m: any) => [m.request_id, m.route, m.element_index, m.body])).toEqual([[r.headers['x-request-id'], 'POST /messages', 0, 'hi'], [r.headers['x-request-id'], 'POST /messages', 1, 'hi']]);
  });
  test('§4 each recipient is checked on its own', async () => {
    const r = await post({ channel: 'email', to: ['a@example.com', 'nope', 'b@example.com'], subject: 'S', body: 'B' });
    expect(r.status).toBe(200);
    expect(r.body.data[0].id).toMatch(/^msg_/);
    expect(r.body.data[1]).toEqual({ index: 1, to: 'nope', error: expect.objectContaining({ code: 'validation_failed', param: 'to' }) });
    expect(r.body.data[2].id).toMatch(/^msg_/);
  });
  test('§8 101 recipients → 422 param to; 100 are accepted', async () => {
    expectError(await post({ channel: 'whatsapp', to: many(101, (i) => ({ p: phone(i) })).map((x) => x.p), body: 'x' }), 422, 'validation_failed', 'to');
    const ok = await post({ channel: 'whatsapp', to: many(100, (i) => ({ p: phone(i) })).map((x) => x.p), body: 'x' });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toHaveLength(100);
  });
  test('§4 whole-call validation names the field', async () => {
    expectError(await post({ channel: 'whatsapp', to: ['+4915112345678'], body: 'x', subject: 's' }), 422, 'validation_failed', 'subject');
    expectError(await post({ channel: 'fax', to: ['+4915112345678'], body: 'x' }), 422, 'validation_failed', 'channel');
    expectError(await post({ to: ['+4915112345678'], body: 'x' }), 422, 'validation_failed', 'channel');
    expectError(await post({ channel: 'whatsapp', to: '+4915112345678', body: 'x' }), 422, 'validation_failed', 'to');
    expectError(await post({ channel: 'whatsapp', to: [], body: 'x' }), 422, 'validation_failed', 'to');
    expectError(await post({ channel: 'whatsapp', to: ['+4915112345678'] }), 422, 'validation_failed', 'body');
    expectError(await post({ channel: 'whatsapp', to: ['+4915112345678'], body: 'x', priority: 'high' }), 422, 'validation_failed', 'priority');
  });
  test('§7 POST /messages: channel_not_in_plan 403, no_sender_available 422, insufficient_credits 402 — nothing sent', async () => {
    const r1 = await post({ channel: 'whatsapp', to: ['+4915112345678'], body: 'x' }, 'sk_test_demo_no_whatsapp');
    expectError(r1, 403, 'channel_not_in_plan', 'channel', 'permission_error');
    const r2 = await post({ channel: 'whatsapp', to: ['+4915112345678'], body: 'x' }, 'sk_test_demo_no_sender');
    expectError(r2, 422, 'no_sender_available', 'channel', 'invalid_request_error');
    const r3 = await post({ channel: 'whatsapp', to: ['+4915112345678'], body: 'x' }, 'sk_test_demo_no_credits');
    expectError(r3, 402, 'insufficient_credits');
    expect((await summary(sb)).messages).toBe(0);
  });
});

describe('§2 GET /messages/{id} and account scoping', () => {
  test('§2 whatsapp message read back without subject', async () => {
    const id = (await send([wa('+4915100000001', 'yo')])).body.data[0].id;
    const r = await call(sb, 'GET', `/messages/${id}`);
    expect(r.body.data).toEqual({ object: 'message', id, channel: 'whatsapp', to: '+4915100000001', body: 'yo', status: 'sent', created_at: expect.any(String) });
  });
  test("§2 another account's id answers 404 resource_not_found", async () => {
    const id = (await send([wa()])).body.data[0].id;
    expectError(await call(sb, 'GET', `/messages/${id}`, { key: 'sk_test_demo_other_account' }), 404, 'resource_not_found', 'id', 'invalid_request_error');
    const theirs = (await send([wa()], 'sk_test_demo_other_account')).body.data[0].id;
    expectError(await call(sb, 'GET', `/messages/${theirs}`), 404, 'resource_not_found', 'id');
    expect((await call(sb, 'GET', `/messages/${theirs}`, { key: 'sk_test_demo_other_account' })).status).toBe(200);
  });
  test('§2 unknown ids and cms_ ids → 404 resource_not_found', async () => {
    expectError(await call(sb, 'GET', '/messages/msg_doesnotexist'), 404, 'resource_not_found');
    expectError(await call(sb, 'GET', '/messages/cms_abc'), 404, 'resource_not_found');
    expectError(await call(sb, 'GET', '/jobs/job_nope'), 404, 'resource_not_found');
  });
  test('§2 ledger rows record account, key, route, element index and content', async () => {
    const r = await call(sb, 'POST', '/messages/batch', { body: { messages: [em('z@example.com', 'B', 'S')] }, idem: 'ledger-row-1' });
    const row = (await ledger(sb)).messages.find((m: any) => m.id === r.body.data[0].id);
    expect(row).toEqual({
      id: r.body.data[0].id, account: 'acc_demo', key_id: 'sk_test_demo_ok', idempotency_key: 'ledger-row-1', request_id: r.headers['x-request-id'],
      route: 'POST /messages/batch', element_index: 0, channel: 'email', to: 'z@example.com', subject: 'S', body: 'B', status: 'sent', created_at: expect.any(String),
    });
  });
});
