/** Shared helpers for the sandbox conformance suite: real HTTP through undici. */
import { request } from 'undici';
import { CONTROL_TOKEN_HEADER, start } from '../../sandbox/server.ts';
import type { Sandbox, SandboxConfigInput } from '../../sandbox/server.ts';
import type { VirtualClock } from './virtual-clock.ts';

export const OK = 'sk_test_demo_ok';

export interface Res {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: any;
  text: string;
}

/** A sandbox on a free port; on `clock` (its time and its `slow` holds) when one is given. */
export async function boot(config?: SandboxConfigInput, clock?: VirtualClock): Promise<Sandbox> {
  return start({ port: 0, config, clock: clock?.now, sleep: clock?.sleep });
}

export async function call(
  sb: Sandbox,
  method: string,
  path: string,
  opts: { key?: string | null; body?: unknown; raw?: string | Buffer; headers?: Record<string, string>; idem?: string; controlToken?: string | null } = {},
): Promise<Res> {
  const headers: Record<string, string> = {};
  const key = opts.key === undefined ? OK : opts.key;
  if (key !== null) headers.authorization = `Bearer ${key}`;
  // Control routes: the sandbox's token and a JSON content type, as a test process sends them.
  const control = path.startsWith('/__sandbox');
  if (control) {
    const token = opts.controlToken === undefined ? sb.controlToken : opts.controlToken;
    if (token !== null) headers[CONTROL_TOKEN_HEADER] = token;
    headers['content-type'] = 'application/json';
  }
  let payload: string | Buffer | undefined;
  if (opts.raw !== undefined) payload = opts.raw;
  else if (opts.body !== undefined) {
    payload = JSON.stringify(opts.body);
    headers['content-type'] = 'application/json';
  }
  if (opts.idem !== undefined) headers['idempotency-key'] = opts.idem;
  Object.assign(headers, opts.headers ?? {});
  const url = control ? sb.origin + path : path.startsWith('http') ? path : sb.url + path;
  const r = await request(url, { method: method as any, headers, body: payload });
  const text = await r.body.text();
  let body: any = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: r.statusCode, headers: r.headers as Res['headers'], body, text };
}

/** Asserts the error envelope with an exact status, code and (when given) param. */
export function expectError(r: Res, status: number, code: string, param?: string | null, type?: string): void {
  expect({ status: r.status, code: r.body?.error?.code }).toEqual({ status, code });
  expect(typeof r.body.error.message).toBe('string');
  expect(r.body.error.doc_url).toBe(`https://docs.example.com/errors#${code}`);
  expect(r.headers['x-request-id']).toMatch(/^req_[A-Za-z0-9]+$/);
  expect(r.headers['content-type']).toBe('application/json');
  if (param === null) expect(r.body.error).not.toHaveProperty('param');
  else if (param !== undefined) expect(r.body.error.param).toBe(param);
  if (type !== undefined) expect(r.body.error.type).toBe(type);
}

export const wa = (to = '+4915112345678', body = 'hello'): Record<string, unknown> => ({ channel: 'whatsapp', to, body });
export const em = (to = 'ana@example.com', body = '<p>hi</p>', subject = 'Hi'): Record<string, unknown> => ({ channel: 'email', to, subject, body });

/** Every retained ledger row over HTTP, page by page: `{ messages, jobs, contacts, requests }`. */
export async function ledger(sb: Sandbox): Promise<any> {
  const out: Record<string, unknown> = {};
  let requests = 0;
  for (const rows of ['messages', 'jobs', 'contacts']) {
    const data: unknown[] = [];
    let after: string | null = null;
    do {
      const r = await call(sb, 'GET', `/__sandbox/ledger?rows=${rows}&limit=1000${after === null ? '' : `&after=${encodeURIComponent(after)}`}`, { key: null });
      if (r.status !== 200) throw new Error(`ledger page: ${r.status} ${r.text}`);
      data.push(...r.body.data);
      after = r.body.next_cursor;
      requests = r.body.totals.requests;
    } while (after !== null);
    out[rows] = data;
  }
  return { ...out, requests };
}
export async function summary(sb: Sandbox): Promise<any> {
  return (await call(sb, 'GET', '/__sandbox/ledger/summary', { key: null })).body;
}

export const many = (n: number, f: (i: number) => Record<string, unknown>): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => f(i));
export const phone = (i: number): string => `+49151${String(1000000 + i)}`;

/**
 * A sandbox for the enclosing suite (on `clock` when given): started before its tests, closed after,
 * and reset before each test. The returned object reads through to the running sandbox.
 */
export function useSandbox(config?: SandboxConfigInput, options: { clock?: VirtualClock } = {}): Sandbox {
  let started: Sandbox | undefined;
  const running = (): Sandbox => {
    if (!started) throw new Error('the sandbox is not started yet (use it inside a test)');
    return started;
  };
  beforeAll(async () => {
    started = await boot(config, options.clock);
  });
  afterAll(() => started?.close());
  beforeEach(() => running().control.reset());
  return {
    get url() {
      return running().url;
    },
    get origin() {
      return running().origin;
    },
    get control() {
      return running().control;
    },
    get controlToken() {
      return running().controlToken;
    },
    close: () => running().close(),
  };
}
