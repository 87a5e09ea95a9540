/** §5 Authentication, scopes, key and account states. */
import { boot, call, expectError, ledger, wa, useSandbox } from './helpers.ts';
import { VirtualClock } from './virtual-clock.ts';

const sb = useSandbox();

const batch = { messages: [wa()] };

describe('§5.1 Bearer only', () => {
  test('§5.1 no Authorization header → 401 missing_api_key', async () => {
    expectError(await call(sb, 'GET', '/account', { key: null }), 401, 'missing_api_key', null, 'authentication_error');
  });
  test('§5.1 a non-Bearer scheme → 401 missing_api_key', async () => {
    const r = await call(sb, 'GET', '/account', { key: null, headers: { authorization: 'Basic c2tfdGVzdF9kZW1vX29rOg==' } });
    expectError(r, 401, 'missing_api_key', null, 'authentication_error');
  });
  test('§5.1 the bare key without "Bearer" → 401 missing_api_key', async () => {
    expectError(await call(sb, 'GET', '/account', { key: null, headers: { authorization: 'sk_test_demo_ok' } }), 401, 'missing_api_key');
  });
  test('§5.1 "Bearer" with no token → 401 missing_api_key', async () => {
    expectError(await call(sb, 'GET', '/account', { key: null, headers: { authorization: 'Bearer ' } }), 401, 'missing_api_key');
  });
  test('§5.1 an unknown token → 401 invalid_api_key', async () => {
    expectError(await call(sb, 'GET', '/account', { key: 'sk_test_nope' }), 401, 'invalid_api_key', null, 'authentication_error');
  });
  test('§5.1 a valid Bearer key works and 401s carry no rate-limit headers', async () => {
    const ok = await call(sb, 'GET', '/account');
    expect(ok.status).toBe(200);
    expect(ok.body.data.id).toBe('acc_demo');
    const bad = await call(sb, 'GET', '/account', { key: 'sk_test_nope' });
    expect(bad.headers['x-ratelimit-limit']).toBeUndefined();
  });
});

describe('§5.2 keys outside the header are refused', () => {
  test('§5.2 a key in the query string is refused (value equals an issued key)', async () => {
    const r = await call(sb, 'GET', '/account?foo=sk_test_demo_ok', { key: null });
    expectError(r, 400, 'request_refused', 'foo', 'invalid_request_error');
  });
  test('§5.2 a key in the query string is refused even next to a valid header', async () => {
    expectError(await call(sb, 'GET', '/account?api_key=whatever'), 400, 'request_refused', 'api_key');
    expectError(await call(sb, 'GET', '/contacts?access_token=x'), 400, 'request_refused', 'access_token');
    expectError(await call(sb, 'GET', '/contacts?TOKEN=x'), 400, 'request_refused', 'TOKEN');
  });
  test('§5.2 a key-named query parameter on a POST is refused and nothing is sent', async () => {
    const r = await call(sb, 'POST', '/messages/batch?key=sk_test_demo_ok', { body: batch });
    expectError(r, 400, 'request_refused', 'key');
    expect((await ledger(sb)).messages).toEqual([]);
  });
  test('§5.2 a key in the request body is refused (field name) even with a valid header', async () => {
    const r = await call(sb, 'POST', '/messages/batch', { body: { ...batch, api_key: 'sk_test_demo_ok' } });
    expectError(r, 400, 'request_refused', 'api_key');
  });
  test('§5.2 a key in the request body is refused (value equals an issued key)', async () => {
    const r = await call(sb, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }], note: 'sk_test_demo_other_account' } });
    expectError(r, 400, 'request_refused', 'note');
  });
});

describe('§5.3–5.4 scopes', () => {
  test('§5.4 POST /messages/batch without messages:write → 403 insufficient_scope naming the scope', async () => {
    const r = await call(sb, 'POST', '/messages/batch', { key: 'sk_test_demo_no_messages_write', body: batch });
    expectError(r, 403, 'insufficient_scope', null, 'permission_error');
    expect(r.body.error.message).toContain('messages:write');
  });
  test('§5.4 POST /messages without messages:write → 403 insufficient_scope', async () => {
    const r = await call(sb, 'POST', '/messages', { key: 'sk_test_demo_no_messages_write', body: { channel: 'whatsapp', to: ['+4915112345678'], body: 'x' } });
    expectError(r, 403, 'insufficient_scope');
    expect(r.body.error.message).toContain('messages:write');
  });
  test('§5.4 POST /contacts/bulk without contacts:write → 403 insufficient_scope naming the scope', async () => {
    const r = await call(sb, 'POST', '/contacts/bulk', { key: 'sk_test_demo_no_contacts_write', body: { contacts: [{ email: 'a@example.com' }] } });
    expectError(r, 403, 'insufficient_scope', null, 'permission_error');
    expect(r.body.error.message).toContain('contacts:write');
  });
  test('§5.4 reads need no write scope (sandbox choice)', async () => {
    expect((await call(sb, 'GET', '/account', { key: 'sk_test_demo_no_messages_write' })).status).toBe(200);
    expect((await call(sb, 'GET', '/contacts', { key: 'sk_test_demo_no_contacts_write' })).status).toBe(200);
  });
  test('§5.3 scopes are fixed per key: the other key of the same account still sends', async () => {
    const r = await call(sb, 'POST', '/messages/batch', { key: 'sk_test_demo_no_contacts_write', body: batch });
    expect(r.status).toBe(200);
    expect(r.body.data[0].id).toMatch(/^msg_/);
  });
});

describe('§5.5 expiry and revocation', () => {
  test('§5.5 an expired key → 401 api_key_expired', async () => {
    expectError(await call(sb, 'GET', '/account', { key: 'sk_test_demo_expired' }), 401, 'api_key_expired', null, 'authentication_error');
  });
  test('§5.5 a revoked key → 401 api_key_revoked', async () => {
    expectError(await call(sb, 'GET', '/account', { key: 'sk_test_demo_revoked' }), 401, 'api_key_revoked', null, 'authentication_error');
  });
  test('§5.5 revocation is immediate (config patch); a key is refused from its expires_at on (sandbox clock)', async () => {
    const clock = new VirtualClock();
    const s2 = await boot({ keys: [{ key: 'sk_test_tmp', account: 'acc_demo', scopes: ['messages:write'], label: 'tmp' }] }, clock);
    try {
      expect((await call(s2, 'GET', '/account', { key: 'sk_test_tmp' })).status).toBe(200);
      s2.control.configure({ keys: [{ key: 'sk_test_tmp', revoked: true }] });
      expectError(await call(s2, 'GET', '/account', { key: 'sk_test_tmp' }), 401, 'api_key_revoked');
      s2.control.configure({ keys: [{ key: 'sk_test_tmp2', account: 'acc_demo', scopes: [], label: 't', expires_at: new Date(clock.now() + 600).toISOString() }] });
      expect((await call(s2, 'GET', '/account', { key: 'sk_test_tmp2' })).status).toBe(200);
      clock.advance(599);
      expect((await call(s2, 'GET', '/account', { key: 'sk_test_tmp2' })).status).toBe(200);
      clock.advance(1);
      expectError(await call(s2, 'GET', '/account', { key: 'sk_test_tmp2' }), 401, 'api_key_expired');
    } finally {
      await s2.close();
    }
  });
});

describe('§5.6 account and plan', () => {
  test('§5.6 plan not running → 403 subscription_expired; the same key works after renewal', async () => {
    const s2 = await boot();
    try {
      const r = await call(s2, 'POST', '/messages/batch', { key: 'sk_test_demo_plan_expired', body: batch });
      expectError(r, 403, 'subscription_expired', null, 'permission_error');
      expectError(await call(s2, 'GET', '/account', { key: 'sk_test_demo_plan_expired' }), 403, 'subscription_expired');
      await call(s2, 'POST', '/__sandbox/config', { key: null, body: { accounts: [{ id: 'acc_plan_expired', plan: { running: true } }] } });
      const again = await call(s2, 'POST', '/messages/batch', { key: 'sk_test_demo_plan_expired', body: batch });
      expect(again.status).toBe(200);
      expect(again.body.data[0].id).toMatch(/^msg_/);
    } finally {
      await s2.close();
    }
  });
  test('§5.6 suspended account → 403 account_suspended', async () => {
    expectError(await call(sb, 'GET', '/account', { key: 'sk_test_demo_suspended' }), 403, 'account_suspended', null, 'permission_error');
  });
  test('§5.6 trashed account → 403 account_suspended', async () => {
    expectError(await call(sb, 'POST', '/messages/batch', { key: 'sk_test_demo_trashed', body: batch }), 403, 'account_suspended');
  });
  test('§5.6 account being deleted → 403 account_suspended; a new key does not help', async () => {
    const s2 = await boot({
      accounts: [{ id: 'acc_del', name: 'Del', status: 'deleting', credits: 5 }],
      keys: [
        { key: 'sk_del_1', account: 'acc_del', scopes: ['messages:write'], label: 'a' },
        { key: 'sk_del_2', account: 'acc_del', scopes: ['messages:write'], label: 'b' },
      ],
    });
    try {
      expectError(await call(s2, 'GET', '/account', { key: 'sk_del_1' }), 403, 'account_suspended');
      expectError(await call(s2, 'GET', '/account', { key: 'sk_del_2' }), 403, 'account_suspended');
    } finally {
      await s2.close();
    }
  });
  test('§5.6 403s after authentication carry rate-limit headers', async () => {
    const r = await call(sb, 'GET', '/account', { key: 'sk_test_demo_suspended' });
    expect(r.headers['x-ratelimit-limit']).toBe('600');
  });
});
