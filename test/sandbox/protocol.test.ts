/** §7 envelope and headers, §8 CORS, routing (404/405), bodies, and robustness against bad input. */
import { connect } from 'node:net';
import { request } from 'undici';
import { boot, call, expectError, summary, wa, useSandbox } from './helpers.ts';

const sb = useSandbox({ max_body_bytes: 64 * 1024 });

const EXPOSED = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'Retry-After', 'Idempotent-Replay'];

describe('§7/§8 headers on every response', () => {
  test('§8 success carries X-Request-Id, JSON content type, CORS, rate-limit headers and Date', async () => {
    const r = await call(sb, 'GET', '/account');
    expect(r.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9]{20}$/);
    expect(r.headers['content-type']).toBe('application/json');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    const exposed = String(r.headers['access-control-expose-headers']).split(',').map((s) => s.trim());
    expect(exposed).toEqual(expect.arrayContaining(EXPOSED));
    expect(r.headers['x-ratelimit-limit']).toBe('600');
    expect(r.headers.date).toBeDefined();
  });
  test('§7 every request gets its own X-Request-Id, errors included', async () => {
    const a = await call(sb, 'GET', '/nope', { key: null });
    const b = await call(sb, 'GET', '/nope', { key: null });
    expect(a.headers['x-request-id']).toMatch(/^req_/);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
    expect(a.headers['access-control-allow-origin']).toBe('*');
  });
  test('§8 OPTIONS preflight → 204 without auth, allowing the headers the API reads', async () => {
    const r = await call(sb, 'OPTIONS', '/messages/batch', { key: null, headers: { origin: 'https://app.example', 'access-control-request-method': 'POST' } });
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(r.headers['access-control-allow-origin']).toBe('*');
    expect(String(r.headers['access-control-allow-headers'])).toMatch(/Authorization.*Content-Type.*Idempotency-Key/);
    expect(String(r.headers['access-control-allow-methods'])).toContain('POST');
    expect(r.headers['x-request-id']).toMatch(/^req_/);
  });
  test('§7 the error envelope has exactly type, code, message, (param), doc_url', async () => {
    const r = await call(sb, 'GET', '/contacts?limit=500');
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(Object.keys(r.body.error).sort()).toEqual(['code', 'doc_url', 'message', 'param', 'type']);
    const r2 = await call(sb, 'GET', '/account', { key: null });
    expect(Object.keys(r2.body.error).sort()).toEqual(['code', 'doc_url', 'message', 'type']);
  });
});

describe('§4/§7 routing', () => {
  test('§7 unknown path → 404 resource_not_found (no auth needed)', async () => {
    for (const p of ['/nope', '/messages/batch/extra', '/account/', '/v2/account', '/favicon.ico']) {
      const url = p.startsWith('/v2') || p === '/favicon.ico' ? sb.origin + p : sb.url + p;
      expectError(await call(sb, 'GET', url, { key: null }), 404, 'resource_not_found', undefined, 'invalid_request_error');
    }
  });
  test('§7 known path + wrong method → 405 method_not_allowed with Allow', async () => {
    const cases: [string, string, string][] = [
      ['GET', '/messages/batch', 'POST'], ['PUT', '/messages', 'POST'], ['DELETE', '/account', 'GET'], ['POST', '/contacts', 'GET'],
      ['PATCH', '/jobs/job_x', 'GET'], ['GET', '/contacts/bulk', 'POST'], ['POST', '/contact-attributes', 'GET'], ['DELETE', '/messages/msg_x', 'GET'],
    ];
    for (const [m, p, allow] of cases) {
      const r = await call(sb, m, p, { key: null });
      expectError(r, 405, 'method_not_allowed', undefined, 'invalid_request_error');
      expect(r.headers.allow).toBe(allow);
    }
  });
  test('§9 the base URL ends in /v1', () => {
    expect(sb.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    expect(sb.origin).toBe(sb.url.slice(0, -3));
  });
});

describe('bodies', () => {
  test('wrong Content-Type → 400 request_refused param Content-Type; nothing sent', async () => {
    const body = JSON.stringify({ messages: [wa()] });
    expectError(await call(sb, 'POST', '/messages/batch', { raw: body, headers: { 'content-type': 'text/plain' } }), 400, 'request_refused', 'Content-Type');
    expectError(await call(sb, 'POST', '/messages/batch', { raw: body }), 400, 'request_refused', 'Content-Type');
    const ok = await call(sb, 'POST', '/messages/batch', { raw: body, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect(ok.status).toBe(200);
  });
  test('malformed JSON → 400 request_refused', async () => {
    for (const raw of ['{', '{"messages": [', 'nope', '', '{"a":1}}', '\u0000']) {
      expectError(await call(sb, 'POST', '/messages/batch', { raw, headers: { 'content-type': 'application/json' } }), 400, 'request_refused', null);
    }
  });
  test('JSON that is not an object → 422 validation_failed', async () => {
    for (const raw of ['[]', '"x"', '42', 'null', 'true']) {
      expectError(await call(sb, 'POST', '/contacts/bulk', { raw, headers: { 'content-type': 'application/json' } }), 422, 'validation_failed', null);
    }
  });
  test('a body over max_body_bytes → 413 request_refused; the server keeps serving', async () => {
    const huge = JSON.stringify({ messages: [{ channel: 'whatsapp', to: '+4915112345678', body: 'x'.repeat(200 * 1024) }] });
    expectError(await call(sb, 'POST', '/messages/batch', { raw: huge, headers: { 'content-type': 'application/json' } }), 413, 'request_refused', null);
    expect((await call(sb, 'GET', '/account')).status).toBe(200);
  });
  test('a 10 MB body to the default 5 MiB limit is refused without a crash', async () => {
    const s2 = await boot();
    try {
      const raw = Buffer.alloc(10 * 1024 * 1024, 0x61);
      expectError(await call(s2, 'POST', '/messages/batch', { raw, headers: { 'content-type': 'application/json' } }), 413, 'request_refused');
      expect((await call(s2, 'GET', '/account')).status).toBe(200);
    } finally {
      await s2.close();
    }
  });
  test('unknown query parameters on a POST → 422 naming them', async () => {
    expectError(await call(sb, 'POST', '/messages/batch?dry_run=1', { body: { messages: [wa()] } }), 422, 'validation_failed', 'dry_run');
  });
  test('deeply nested (within max_json_depth) and odd JSON values never crash the element checks', async () => {
    let deep: any = 'x';
    for (let i = 0; i < 95; i++) deep = [deep];
    const r = await call(sb, 'POST', '/messages/batch', { body: { messages: [{ channel: 'whatsapp', to: deep, body: { a: deep } }, { channel: { toString: 1 }, to: '+4915112345678', body: 'x' }, { __proto__: { channel: 'whatsapp' }, to: '+4915112345678', body: 'x' }] } });
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: any) => d.error?.param)).toEqual(['to', 'channel', 'channel']);
    const proto = await call(sb, 'POST', '/messages/batch', { raw: '{"messages":[{"channel":"whatsapp","to":"+4915112345678","body":"x","__proto__":{"x":1}}]}', headers: { 'content-type': 'application/json' } });
    expect(proto.status).toBe(200);
    expect(proto.body.data[0].error.param).toBe('__proto__');
  });
  test('unicode and HTML bodies are stored verbatim', async () => {
    const body = '<b>Grüße</b> 👋 \u2028 "quoted"';
    const r = await call(sb, 'POST', '/messages/batch', { body: { messages: [{ channel: 'email', to: 'u@example.com', subject: 'Ünï', body }] } });
    const m = await call(sb, 'GET', `/messages/${r.body.data[0].id}`);
    expect(m.body.data.body).toBe(body);
    expect(m.body.data.subject).toBe('Ünï');
  });
});

describe('robustness: odd paths and raw HTTP', () => {
  test('odd paths and encodings answer with the envelope', async () => {
    for (const p of ['/messages/%E0%A4%A', '/messages/%00', '/jobs/..%2F..%2Fetc', '/messages/' + 'a'.repeat(5000), '/jobs/%20']) {
      const r = await call(sb, 'GET', p);
      expect([404]).toContain(r.status);
      expect(r.body.error.code).toBe('resource_not_found');
    }
    expectError(await call(sb, 'GET', '//v1/account', { key: null }), 404, 'resource_not_found');
  });

  const raw = (payload: string): Promise<string> =>
    new Promise((resolve) => {
      const port = Number(new URL(sb.origin).port);
      const s = connect(port, '127.0.0.1', () => s.end(payload));
      let out = '';
      s.on('data', (d) => (out += d.toString()));
      s.on('close', () => resolve(out));
      s.on('error', () => resolve(out));
    });

  test('a malformed HTTP request gets a JSON envelope, not a crash', async () => {
    const out = await raw('GARBAGE\r\n\r\n');
    expect(out).toMatch(/^HTTP\/1\.1 400/);
    expect(out).toContain('"code":"request_refused"');
    expect((await call(sb, 'GET', '/account')).status).toBe(200);
  });
  test('an oversized header block is refused with 431 and the envelope', async () => {
    const out = await raw(`GET /v1/account HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(70 * 1024)}\r\n\r\n`);
    expect(out).toMatch(/^HTTP\/1\.1 431/);
    expect((await call(sb, 'GET', '/account')).status).toBe(200);
  });
  test('a client that disconnects mid-body does not hurt the server', async () => {
    await raw('POST /v1/messages/batch HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_test_demo_ok\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"messages":[');
    expect((await call(sb, 'GET', '/account')).status).toBe(200);
  });
  test('many concurrent requests on keep-alive connections all succeed and each one is counted', async () => {
    const rs = await Promise.all(Array.from({ length: 50 }, () => request(`${sb.url}/messages/batch`, { method: 'POST', headers: { authorization: 'Bearer sk_test_demo_ok', 'content-type': 'application/json' }, body: JSON.stringify({ messages: [wa()] }) }).then(async (r) => { await r.body.text(); return r.statusCode; })));
    expect(rs.every((s) => s === 200)).toBe(true);
    expect((await summary(sb)).messages).toBe(50);
  });
});
