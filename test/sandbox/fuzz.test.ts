/**
 * Fuzz: 10,000 random and hostile requests (bodies, headers, paths, a share of raw malformed HTTP) against
 * an in-process sandbox with no injected fault. Not one may answer 500. Seeded (FUZZ_SEED), so a failure
 * reproduces; the failing case is printed.
 */
import { connect } from 'node:net';
import { Pool } from 'undici';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { seededRandom } from '../support/seeded-random.ts';

const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const TOTAL = Number(process.env.FUZZ_TOTAL ?? 10_000);
const LANES = 4;
const RAW_SHARE = 0.05;

const HOSTILE_NAMES = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'then', ''];
const HOSTILE_STRINGS = [...HOSTILE_NAMES, '<img src=x onerror=alert(1)>', '::set-output name=x::y', '%00', '\u0000', '\ud800', '\u2028', '${{ secrets.X }}', 'sk_test_demo_ok', 'Bearer sk_test_demo_ok', ' ', '+4915112345678', 'a@example.com', 'x'.repeat(300)];
const PATHS = [
  '/v1/messages/batch', '/v1/messages', '/v1/contacts/bulk', '/v1/contacts', '/v1/contact-attributes', '/v1/account', '/v1/jobs/job_x', '/v1/messages/msg_x',
  '/v1/messages/__proto__', '/v1/jobs/constructor', '/v1/__proto__', '/v1/constructor/toString', '/v1/contacts?limit=__proto__', '/v1/contacts?starting_after=constructor&limit=2',
  '/v1/contacts?limit=1&limit=2', '/v1/account?api_key=x', '/v1/account?foo=sk_test_demo_ok', '/v1/account?__proto__=1', '/v1/messages/%E0%A4%A', '/v1/messages/%00', '/v1/jobs/..%2F..%2Fetc',
  '//v1/account', '/v1/', '/v1', '/', '/inbox/state', '/inbox/app.js', '/inbox/nope', '/inbox/__proto__', '/__sandbox/ledger', '/__sandbox/ledger/summary', '/__sandbox/faults',
  '/__sandbox/reset', '/__sandbox/config', '/__sandbox/constructor', '/__sandbox/__proto__', '/__sandbox/', '/v1/messages/batch?x=' + '%41'.repeat(200), '/v1/' + 'a/'.repeat(300),
];
const METHODS = ['GET', 'POST', 'POST', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'HEAD'];
const KEYS = ['sk_test_demo_ok', 'sk_test_demo_ok', 'sk_test_demo_ok', 'sk_test_demo_rate_limited', 'sk_test_demo_expired', 'sk_test_demo_no_messages_write', 'sk_test_nope', '__proto__', 'constructor', ''];

interface Case {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

function generator(rand: () => number) {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const int = (n: number): number => Math.floor(rand() * n);
  const str = (): string => (rand() < 0.5 ? pick(HOSTILE_STRINGS) : Array.from({ length: int(12) }, () => String.fromCharCode(int(rand() < 0.9 ? 128 : 0xffff))).join(''));
  const value = (depth: number): unknown => {
    const r = rand();
    if (depth > 4 || r < 0.3) return pick<unknown>([str(), int(1000) - 500, rand(), true, false, null, 1e308, -0]);
    if (r < 0.55) return Array.from({ length: int(4) }, () => value(depth + 1));
    const o: Record<string, unknown> = {};
    for (let i = 0; i < int(5); i++) Object.defineProperty(o, rand() < 0.4 ? pick(HOSTILE_NAMES) : str(), { value: value(depth + 1), enumerable: true, configurable: true, writable: true });
    return o;
  };
  const element = (): unknown => {
    const el: Record<string, unknown> = { channel: pick(['whatsapp', 'email', ...HOSTILE_NAMES, 'sms', 1, null]), to: pick<unknown>(['+4915112345678', 'a@example.com', str(), ['+4915112345678'], 5]), body: pick<unknown>(['hi', str(), '', { a: 1 }]) };
    if (rand() < 0.3) el.subject = pick<unknown>(['Hi', str(), 3]);
    if (rand() < 0.2) Object.defineProperty(el, pick(HOSTILE_NAMES), { value: value(2), enumerable: true });
    return el;
  };
  const deep = (n: number): string => '['.repeat(n) + '0' + ']'.repeat(n);
  const body = (): string | Buffer => {
    const r = rand();
    if (r < 0.25) return JSON.stringify({ messages: Array.from({ length: int(8) + (rand() < 0.05 ? 600 : 0) }, element) });
    if (r < 0.35) return JSON.stringify({ contacts: Array.from({ length: int(6) }, () => value(1)) });
    if (r < 0.45) return JSON.stringify({ channel: pick(['whatsapp', 'email', ...HOSTILE_NAMES]), to: Array.from({ length: int(4) }, () => pick(['+4915112345678', str()])), body: str() });
    if (r < 0.55) return JSON.stringify(value(0));
    if (r < 0.62) return `{"messages":[{"channel":"whatsapp","to":${deep(int(4000))},"body":"x"}]}`;
    if (r < 0.67) return '{"__proto__":{"x":1},"constructor":{"prototype":{"y":2}},"messages":[{"channel":"__proto__","to":"+4915112345678","body":"x"}]}';
    if (r < 0.72) return Buffer.from(Array.from({ length: int(200) }, () => int(256)));
    if (r < 0.77) return JSON.stringify({ messages: [{ channel: 'email', to: 'a@example.com', body: 'x'.repeat(70 * 1024) }] });
    if (r < 0.82) return JSON.stringify({ messages: [element()] }).slice(0, int(40));
    if (r < 0.87) return '';
    return JSON.stringify(value(0)).replace(/"/g, pick(['"', "'", '\\"', '']));
  };
  const writes = ['/v1/messages/batch', '/v1/messages', '/v1/contacts/bulk'];
  return (): Case => {
    // Mostly the path's own method, so most requests get past routing to the checks behind it.
    const path = rand() < 0.5 ? pick(writes) : pick(PATHS);
    const own = writes.includes(path.split('?')[0]!) || path.startsWith('/__sandbox/') ? 'POST' : 'GET';
    const method = rand() < 0.75 ? own : pick(METHODS);
    const headers: Record<string, string> = {};
    if (rand() < 0.9) headers.authorization = rand() < 0.6 ? 'Bearer sk_test_demo_ok' : rand() < 0.8 ? `Bearer ${pick(KEYS)}` : pick(['Basic abc', 'Bearer', 'bearer  sk_test_demo_ok ', str()]);
    if (rand() < 0.9) headers['content-type'] = rand() < 0.6 ? 'application/json' : pick(['application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'APPLICATION/JSON', 'application/json;;;', '']);
    if (rand() < 0.3) headers['idempotency-key'] = pick(['k' + int(50), 'x'.repeat(256), ' ', '__proto__', 'constructor', 'ü'.repeat(10)]);
    if (rand() < 0.15) headers.origin = pick(['https://evil.example', 'null', 'http://127.0.0.1']);
    if (rand() < 0.15) headers['x-sandbox-token'] = pick(['wrong', '', '__proto__']);
    // Header values a client library can send (control bytes and non-Latin-1 go percent-encoded; the raw cases cover the rest).
    for (const [k, v] of Object.entries(headers)) headers[k] = v.replace(/[^\t\x20-\x7e]/g, (c) => `%${c.charCodeAt(0).toString(16)}`);
    return { method, path, headers, body: method === 'GET' || method === 'HEAD' || rand() < 0.05 ? undefined : body() };
  };
}

/** Raw bytes no HTTP client would send. */
function rawGenerator(rand: () => number) {
  const pick = <T,>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  return (): string =>
    pick([
      'GARBAGE\r\n\r\n',
      'GET /v1/account HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_test_demo_ok\r\nX-Bad: \u0001\r\n\r\n',
      'POST /v1/messages/batch HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\nAuthorization: Bearer sk_test_demo_ok\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
      'POST /v1/messages/batch HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\n{}{}{}',
      'GET /v1/account HTTP/9.9\r\nHost: x\r\n\r\n',
      `GET /v1/account?${'a=1&'.repeat(3000)} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk_test_demo_ok\r\n\r\n`,
      `GET /${'%'.repeat(100)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      'GET /inbox/state HTTP/1.1\r\nHost: attacker.example\r\n\r\n',
      'POST /__sandbox/reset HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}',
    ]);
}

function rawSend(sb: Sandbox, payload: string): Promise<number> {
  return new Promise((resolve) => {
    const s = connect(Number(new URL(sb.origin).port), '127.0.0.1', () => s.end(payload));
    // A server that neither answers nor closes is a failure (status 0), not a hung test.
    s.setTimeout(10_000, () => s.destroy());
    let out = '';
    s.on('data', (d) => (out += d.toString()));
    s.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(out)?.[1] ?? 0)));
    s.on('error', () => resolve(0));
  });
}

test(`fuzz: ${TOTAL} random and hostile requests, 0 answers of 500 (seed ${SEED})`, async () => {
  const sb = await start({ port: 0, config: { max_body_bytes: 64 * 1024, job_rows_per_second: 100_000, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: 1e9 }] } });
  // A request the server never answers fails after 10 s (status 0) instead of hanging the lane.
  const pool = new Pool(sb.origin, { connections: LANES, pipelining: 1, headersTimeout: 10_000, bodyTimeout: 10_000 });
  const rand = seededRandom(SEED);
  const next = generator(rand);
  const nextRaw = rawGenerator(rand);
  const cases = Array.from({ length: TOTAL }, (_, i) => (rand() < RAW_SHARE ? { i, raw: nextRaw() } : { i, req: next() }));
  const byStatus = new Map<number, number>();
  const failures: string[] = [];
  let at = 0;
  const lane = async (): Promise<void> => {
    while (at < cases.length) {
      const c = cases[at++]!;
      let status: number;
      if ('raw' in c) {
        status = await rawSend(sb, c.raw!);
        if (status === 0) failures.push(`#${c.i}: no HTTP answer to ${JSON.stringify(c.raw!.slice(0, 300))}`);
        if (status < 300 && /^POST \/__sandbox/.test(c.raw!)) failures.push(`#${c.i}: a control write without the token answered ${status}`);
      } else {
        const r = c.req!;
        try {
          const res = await pool.request({ method: r.method as 'GET', path: r.path, headers: r.headers, body: r.body });
          await res.body.arrayBuffer();
          status = res.statusCode;
          // The fuzz never has the control token: no control write may succeed.
          if (status < 300 && r.method !== 'GET' && r.path.startsWith('/__sandbox')) failures.push(`#${c.i}: ${r.method} ${r.path} answered ${status} without the token`);
        } catch (e) {
          const code = (e as { code?: string }).code ?? '';
          status = 0;
          failures.push(`#${c.i} ${r.method} ${r.path} ${JSON.stringify(r.headers)} body ${String(r.body ?? '').length} B: ${code} ${(e as Error).message}`);
        }
      }
      byStatus.set(status, (byStatus.get(status) ?? 0) + 1);
      if (status >= 500) failures.push(`#${c.i}: ${status} for ${JSON.stringify('raw' in c ? c.raw : { ...c.req, body: String(c.req!.body ?? '').slice(0, 300) })}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: LANES }, lane));
    const totals = [...byStatus].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`fuzz seed ${SEED}: ${TOTAL} requests (${cases.filter((c) => 'raw' in c).length} raw) → ${totals}; 5xx or transport failures: ${failures.length}`);
    expect(failures).toEqual([]);
    expect(byStatus.get(500) ?? 0).toBe(0);
    expect([...byStatus.keys()].filter((s) => s >= 200 && s < 300).length).toBeGreaterThan(0);
    // Still serving.
    const r = await pool.request({ method: 'GET', path: '/v1/account', headers: { authorization: 'Bearer sk_test_demo_ok' } });
    expect(r.statusCode).toBe(200);
    await r.body.arrayBuffer();
  } finally {
    await pool.close();
    await sb.close();
  }
}, 180_000);
