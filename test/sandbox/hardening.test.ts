/** Hostile input never breaks the sandbox, and nothing outside the test process can drive its control routes. */
import { connect } from 'node:net';
import { start } from '../../sandbox/server.ts';
import { call, em, expectError, summary, wa, useSandbox } from './helpers.ts';
import { VirtualClock } from './virtual-clock.ts';

const clock = new VirtualClock();
const sb = useSandbox({ max_body_bytes: 64 * 1024 }, { clock });

/** Sends raw bytes, leaves the socket open, and resolves with the first answer (or '' if the server closes without one). */
function firstAnswer(head: string, body: string): Promise<string> {
  return new Promise((resolve) => {
    const port = Number(new URL(sb.origin).port);
    const s = connect(port, '127.0.0.1', () => s.write(head + body));
    let out = '';
    s.on('data', (d) => {
      out += d.toString();
      if (out.includes('\r\n\r\n')) {
        s.destroy();
        resolve(out);
      }
    });
    s.on('close', () => resolve(out));
    s.on('error', () => resolve(out));
  });
}

describe('prototype names are ordinary names', () => {
  const names = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];
  test.each(['__proto__', 'constructor', 'prototype'])('a contact attribute named %s is refused when the sandbox starts (it could not be stored)', async (key) => {
    await expect(start({ port: 0, config: { accounts: [{ id: 'acc_demo', contact_attributes: [{ key, type: 'text' }] }] } })).rejects.toThrow(`attribute key ${key} is a prototype name`);
  });
  test('a batch row with channel set to a prototype name is a row error; the other rows are sent', async () => {
    const r = await call(sb, 'POST', '/messages/batch', { body: { messages: [...names.map((channel) => ({ channel, to: '+4915112345678', body: 'x' })), wa()] } });
    expect(r.status).toBe(200);
    expect(r.body.data.slice(0, names.length).map((d: any) => [d.error.code, d.error.param])).toEqual(names.map(() => ['validation_failed', 'channel']));
    expect(r.body.data[names.length].id).toMatch(/^msg_/);
    expect((await summary(sb)).messages).toBe(1);
  });
  test('POST /messages with a prototype-named channel → 422 naming channel', async () => {
    for (const channel of names) expectError(await call(sb, 'POST', '/messages', { body: { channel, to: ['+4915112345678'], body: 'x' } }), 422, 'validation_failed', 'channel');
  });
  test('a contact row with a prototype-named field is a row error naming it', async () => {
    const raw = '{"contacts":[{"email":"a@example.com","constructor":"x"},{"email":"b@example.com","__proto__":{"vip":true}},{"email":"c@example.com","toString":1}]}';
    const j = await call(sb, 'POST', '/contacts/bulk', { raw, headers: { 'content-type': 'application/json' } });
    expect(j.status).toBe(202);
    clock.advance(15); // 3 rows at the demo's 200 rows/s
    const job = await call(sb, 'GET', `/jobs/${j.body.data.id}`);
    expect(job.body.data).toMatchObject({ status: 'completed', processed: 3, failed: 3 });
    expect(job.body.data.errors.map((e: any) => [e.index, e.error.param])).toEqual([[0, 'constructor'], [1, '__proto__'], [2, 'toString']]);
  });
  test('control routes named like prototype members are 404, not 500', async () => {
    for (const p of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) expectError(await call(sb, 'GET', `/__sandbox/${p}`), 404, 'resource_not_found');
  });
  test('a config patch carrying __proto__ is refused and changes nothing', async () => {
    const raw = '{"accounts":[{"id":"acc_demo","__proto__":{"credits":1}}]}';
    expectError(await call(sb, 'POST', '/__sandbox/config', { raw }), 400, 'validation_failed');
    expect((await call(sb, 'GET', '/account')).body.data.credits).toBe(10000);
  });
});

describe('limits on the body and on JSON depth', () => {
  const nested = (depth: number): string => '{"messages":[{"channel":"whatsapp","to":' + '['.repeat(depth) + '1' + ']'.repeat(depth) + ',"body":"x"}]}';
  test('JSON nested deeper than max_json_depth → 400 request_refused, with or without an Idempotency-Key; nothing sent', async () => {
    for (const idem of [undefined, 'deep']) {
      for (const depth of [200, 2500, 20000]) {
        const r = await call(sb, 'POST', '/messages/batch', { raw: nested(depth), headers: { 'content-type': 'application/json' }, idem });
        expectError(r, 400, 'request_refused', null);
        expect(r.body.error.message).toMatch(/deeper than 100/);
      }
    }
    expect((await summary(sb)).messages).toBe(0);
  });
  test('depth counts containers, not brackets inside strings; a body at the limit is read', async () => {
    const r = await call(sb, 'POST', '/messages/batch', { raw: nested(97), headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(200);
    expect(r.body.data[0].error.param).toBe('to');
    const text = await call(sb, 'POST', '/messages/batch', { body: { messages: [wa('+4915112345678', '['.repeat(5000) + '{"')] } });
    expect(text.status).toBe(200);
    expect(text.body.data[0].id).toMatch(/^msg_/);
  });
  test('a declared Content-Length over the limit is answered 413 at once, before any body byte is sent', async () => {
    const head = `POST /v1/messages/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_test_demo_ok\r\nContent-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024}\r\n\r\n`;
    const out = await firstAnswer(head, '');
    expect(out).toMatch(/^HTTP\/1\.1 413/);
    expect(out).toMatch(/connection: close/i);
  });
  test('a chunked body is answered 413 as soon as it passes the limit, while the client is still sending', async () => {
    const head = 'POST /v1/messages/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_test_demo_ok\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n';
    const chunk = 'a'.repeat(80 * 1024);
    const out = await firstAnswer(head, `${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    expect(out).toMatch(/^HTTP\/1\.1 413/);
  });
  test('a too-large body through a client: 413 request_refused with the envelope; the server keeps serving', async () => {
    const huge = JSON.stringify({ messages: [em('a@example.com', 'x'.repeat(200 * 1024))] });
    const r = await call(sb, 'POST', '/messages/batch', { raw: huge, headers: { 'content-type': 'application/json' } });
    expectError(r, 413, 'request_refused', null);
    expect(r.headers['x-ratelimit-limit']).toBe('600');
    expect((await call(sb, 'GET', '/account')).status).toBe(200);
    expect((await summary(sb)).messages).toBe(0);
  });
});

describe('control routes only the test process can drive', () => {
  test('every mutating control route needs the control token; without it or with a wrong one → 401 and nothing changes', async () => {
    const routes: [string, string, unknown][] = [['POST', '/__sandbox/reset', {}], ['POST', '/__sandbox/faults', { route: 'GET /v1/account', kind: 'error_500_before_commit' }], ['DELETE', '/__sandbox/faults', undefined], ['POST', '/__sandbox/config', { accounts: [{ id: 'acc_demo', credits: 1 }] }]];
    await call(sb, 'POST', '/messages/batch', { body: { messages: [wa()] } });
    for (const [method, path, body] of routes) {
      for (const token of [null, 'wrong', sb.controlToken.slice(0, -1)]) {
        const r = await call(sb, method, path, { body, controlToken: token });
        expectError(r, 401, 'invalid_control_token');
      }
    }
    expect((await summary(sb)).messages).toBe(1);
    expect(sb.control.faults()).toEqual([]);
    expect((await call(sb, 'GET', '/account')).body.data.credits).toBe(9999);
  });
  test('the token is per process and settable', async () => {
    const other = await start({ port: 0, controlToken: 'my-own-token-1234' });
    try {
      expect(other.controlToken).toBe('my-own-token-1234');
      expect(sb.controlToken).toMatch(/^[A-Za-z0-9]{32}$/);
      expectError(await call(other, 'POST', '/__sandbox/reset', { controlToken: sb.controlToken }), 401, 'invalid_control_token');
      expect((await call(other, 'POST', '/__sandbox/reset')).status).toBe(200);
    } finally {
      await other.close();
    }
  });
  test('a simple cross-origin form post (text/plain, no token) cannot reset or inject faults', async () => {
    for (const path of ['/__sandbox/reset', '/__sandbox/faults']) {
      const r = await call(sb, 'POST', path, { raw: '{"route":"GET /v1/account","kind":"error_500_before_commit"}', headers: { 'content-type': 'text/plain', origin: 'https://evil.example' }, controlToken: null });
      expect([401, 403]).toContain(r.status);
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect(sb.control.faults()).toEqual([]);
  });
  test('a JSON content type is required on control POSTs, even with the token', async () => {
    const r = await call(sb, 'POST', '/__sandbox/faults', { raw: '{"route":"GET /v1/account","kind":"slow"}', headers: { 'content-type': 'text/plain' } });
    expectError(r, 400, 'request_refused', 'Content-Type');
    expect(sb.control.faults()).toEqual([]);
  });
  test('a foreign Origin is refused on every control route, reads included, even with the token', async () => {
    for (const [method, path] of [['GET', '/__sandbox/ledger'], ['GET', '/__sandbox/config'], ['POST', '/__sandbox/reset']]) {
      const r = await call(sb, method!, path!, { body: method === 'POST' ? {} : undefined, headers: { origin: 'https://evil.example' } });
      expectError(r, 403, 'request_refused');
      expect(r.headers['access-control-allow-origin']).toBeUndefined();
    }
    expect((await call(sb, 'GET', '/__sandbox/ledger', { headers: { origin: sb.origin } })).status).toBe(200);
  });
  test('a Host that is not this sandbox (DNS rebinding) is refused on control routes', async () => {
    expectError(await call(sb, 'GET', '/__sandbox/config', { headers: { host: 'attacker.example:80' } }), 403, 'request_refused');
  });
  test('control answers carry no CORS headers; a preflight gets none either', async () => {
    const r = await call(sb, 'GET', '/__sandbox/ledger/summary');
    expect(r.status).toBe(200);
    expect(Object.keys(r.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    const pre = await call(sb, 'OPTIONS', '/__sandbox/reset', { headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
  });
  test('read-only control routes answer without the token (a same-origin or non-browser reader)', async () => {
    for (const path of ['/__sandbox/ledger', '/__sandbox/ledger/summary', '/__sandbox/faults', '/__sandbox/config'])
      expect((await call(sb, 'GET', path, { controlToken: null })).status).toBe(200);
  });
});

describe('§8 rate-limit headers on every answer to an identified key', () => {
  test('404 and 405 to a valid key carry the headers and are counted', async () => {
    const a = await call(sb, 'GET', '/account');
    const remaining = Number(a.headers['x-ratelimit-remaining']);
    const nf = await call(sb, 'GET', '/nope');
    expectError(nf, 404, 'resource_not_found');
    expect(Number(nf.headers['x-ratelimit-remaining'])).toBe(remaining - 1);
    const na = await call(sb, 'DELETE', '/account');
    expectError(na, 405, 'method_not_allowed');
    expect(na.headers['x-ratelimit-limit']).toBe('600');
    expect(Number(na.headers['x-ratelimit-remaining'])).toBe(remaining - 2);
    const bad = await call(sb, 'GET', '/messages/%E0%A4%A');
    expect(Number(bad.headers['x-ratelimit-remaining'])).toBe(remaining - 3);
  });
  test('404 and 405 without a valid key carry no rate-limit headers', async () => {
    for (const key of [null, 'sk_test_nope', 'sk_test_demo_expired']) {
      expect((await call(sb, 'GET', '/nope', { key })).headers['x-ratelimit-limit']).toBeUndefined();
      expect((await call(sb, 'DELETE', '/account', { key })).headers['x-ratelimit-limit']).toBeUndefined();
    }
  });
  test('a key over its ceiling gets 429 on an unknown path too', async () => {
    const s2 = await start({ port: 0, config: { window_seconds: 3600, accounts: [{ id: 'acc_rate_limited', rate_limit: 1 }] } });
    try {
      expect((await call(s2, 'GET', '/nope', { key: 'sk_test_demo_rate_limited' })).status).toBe(404);
      expectError(await call(s2, 'GET', '/nope', { key: 'sk_test_demo_rate_limited' }), 429, 'rate_limit_exceeded');
    } finally {
      await s2.close();
    }
  });
});

describe('§5.2 a key outside the header: no oracle', () => {
  const same = (a: { status: number; body: any }, b: { status: number; body: any }): void => {
    expect({ status: a.status, code: a.body.error.code, param: a.body.error.param }).toEqual({ status: b.status, code: b.body.error.code, param: b.body.error.param });
  };
  test('unauthenticated: an issued and an unknown key-like value in the query answer the same', async () => {
    for (const [issued, unknown] of [['sk_test_demo_ok', 'sk_test_nope_nope'], ['sk_test_demo_other_account', 'sk_live_guess']])
      same(await call(sb, 'GET', `/account?foo=${issued}`, { key: null }), await call(sb, 'GET', `/account?foo=${unknown}`, { key: null }));
  });
  test('a key whose value does not look like a key is not revealed by the query either', async () => {
    const s2 = await start({ port: 0, config: { keys: [{ key: 'plainsecret', account: 'acc_demo', scopes: [] }] } });
    try {
      same(await call(s2, 'GET', '/account?foo=plainsecret', { key: null }), await call(s2, 'GET', '/account?foo=plainguess', { key: null }));
      same(await call(s2, 'GET', '/account?foo=plainsecret'), await call(s2, 'GET', '/account?foo=plainguess'));
      same(await call(s2, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }], note: 'plainsecret' } }), await call(s2, 'POST', '/contacts/bulk', { body: { contacts: [{ email: 'a@example.com' }], note: 'plainguess' } }));
      expectError(await call(s2, 'GET', '/account?foo=plainsecret', { key: 'plainsecret' }), 400, 'request_refused', 'foo');
    } finally {
      await s2.close();
    }
  });
});

describe('idempotency retention (--idempotency-ttl)', () => {
  test('a key is replayed until the TTL passes, then it is new again (injected clock)', async () => {
    let now = Date.UTC(2030, 0, 1);
    const s2 = await start({ port: 0, clock: () => now, config: { idempotency_retention_seconds: 600 } });
    try {
      const send = () => call(s2, 'POST', '/messages/batch', { body: { messages: [wa()] }, idem: 'ttl' });
      expect((await send()).headers['idempotent-replay']).toBeUndefined();
      now += 599_000;
      expect((await send()).headers['idempotent-replay']).toBe('true');
      now += 1_000;
      expect((await send()).headers['idempotent-replay']).toBeUndefined();
      expect(s2.control.summary().messages).toBe(2);
    } finally {
      await s2.close();
    }
  });
});
