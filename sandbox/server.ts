/**
 * The sandbox HTTP server: a stateful local emulator of the messaging service (`/v1`) plus the
 * control routes (`/__sandbox/...`) used by tests. Node built-ins only.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ConfigError, initialConfig, loadConfigInput } from './config.ts';
import { Engine, KEY_PARAM_NAMES } from './engine.ts';
import type { Ctx, Reply } from './engine.ts';
import { FaultError, Faults } from './faults.ts';
import type { FaultInput, FaultRule, SandboxConfigInput, SandboxControl } from './types.ts';
import { T, canonicalJson, err, isPlainObject, newId, sha256 } from './util.ts';

export type * from './types.ts';
export { demoConfig, demoKeys } from './demo-config.ts';

export interface StartOptions {
  /** Port to listen on; 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A (partial) config merged over the demo config, or the path of a JSON file holding one. */
  config?: SandboxConfigInput | string;
}

export interface Sandbox {
  /** Base URL of the API, e.g. http://127.0.0.1:4010/v1 (no trailing slash). */
  url: string;
  /** e.g. http://127.0.0.1:4010 */
  origin: string;
  control: SandboxControl;
  close(): Promise<void>;
}

const EXPOSED = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replay';

type RouteName = 'messages.send' | 'messages.batch' | 'contacts.bulk' | 'messages.get' | 'jobs.get' | 'contacts.list' | 'attributes.list' | 'account.get';
interface Route {
  name: RouteName;
  method: 'GET' | 'POST';
  id?: string;
  scope?: string;
}

/** Known paths under /v1 (segments after `v1`). */
function resolve(rest: string[]): Route | null {
  if (rest.length === 1) {
    switch (rest[0]) {
      case 'messages':
        return { name: 'messages.send', method: 'POST', scope: 'messages:write' };
      case 'contacts':
        return { name: 'contacts.list', method: 'GET' };
      case 'contact-attributes':
        return { name: 'attributes.list', method: 'GET' };
      case 'account':
        return { name: 'account.get', method: 'GET' };
    }
    return null;
  }
  if (rest.length === 2 && rest[1] !== '') {
    if (rest[0] === 'messages') {
      if (rest[1] === 'batch') return { name: 'messages.batch', method: 'POST', scope: 'messages:write' };
      return { name: 'messages.get', method: 'GET', id: rest[1] };
    }
    if (rest[0] === 'contacts' && rest[1] === 'bulk') return { name: 'contacts.bulk', method: 'POST', scope: 'contacts:write' };
    if (rest[0] === 'jobs') return { name: 'jobs.get', method: 'GET', id: rest[1] };
  }
  return null;
}

function baseHeaders(requestId: string): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'X-Request-Id': requestId,
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers': EXPOSED,
  };
}

function send(res: ServerResponse, requestId: string, status: number, body: string | null, extra?: Record<string, string>, extra2?: Record<string, string>): void {
  if (res.headersSent || res.destroyed) return;
  const headers = baseHeaders(requestId);
  if (extra) Object.assign(headers, extra);
  if (extra2) Object.assign(headers, extra2);
  if (body !== null) headers['Content-Length'] = String(Buffer.byteLength(body));
  res.writeHead(status, headers);
  res.end(body ?? undefined);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

function destroy(req: IncomingMessage, res: ServerResponse): void {
  res.socket?.destroy();
  req.socket.destroy();
}

export async function start(options: StartOptions = {}): Promise<Sandbox> {
  const engine = new Engine(initialConfig(loadConfigInput(options.config)));
  const faults = new Faults();

  const control: SandboxControl = {
    ledger: () => engine.ledger(),
    summary: () => engine.summary(),
    addFault: (rule: FaultInput): FaultRule => faults.add(rule),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    reset: () => {
      engine.reset();
      faults.clear();
    },
    configure: (patch) => engine.configure(patch),
    config: () => structuredClone(engine.config),
  };

  const reply = (res: ServerResponse, requestId: string, r: Reply, rl?: Record<string, string>): void => {
    send(res, requestId, r.status, JSON.stringify(r.body), rl, r.headers);
  };
  const fail = (res: ServerResponse, requestId: string, status: number, type: string, code: string, message: string, param?: string, rl?: Record<string, string>): void => {
    reply(res, requestId, engine.fail(status, err(type, code, message, param)), rl);
  };

  // ------------------------------------------------------------------ control routes (/__sandbox)
  function handleControl(req: IncomingMessage, res: ServerResponse, requestId: string, segs: string[], raw: Buffer | null, tooLarge: boolean): void {
    const method = req.method ?? 'GET';
    const path = segs.slice(2).join('/');
    const ok = (status: number, body: unknown): void => send(res, requestId, status, JSON.stringify(body));
    const bad = (status: number, code: string, message: string, param?: string): void => fail(res, requestId, status, T.invalid, code, message, param);
    const parse = (): { value: unknown } | null => {
      if (tooLarge) {
        bad(400, 'request_refused', 'Body too large.');
        return null;
      }
      const text = raw ? raw.toString('utf8') : '';
      if (text.trim() === '') return { value: {} };
      try {
        return { value: JSON.parse(text) };
      } catch {
        bad(400, 'request_refused', 'Body is not valid JSON.');
        return null;
      }
    };
    const routes: Record<string, string[]> = {
      ledger: ['GET'],
      'ledger/summary': ['GET'],
      faults: ['GET', 'POST', 'DELETE'],
      reset: ['POST'],
      config: ['GET', 'POST'],
    };
    const allowed = routes[path];
    if (!allowed) return bad(404, 'resource_not_found', `No control route /__sandbox/${path}.`);
    if (!allowed.includes(method)) return send(res, requestId, 405, JSON.stringify(engine.fail(405, err(T.invalid, 'method_not_allowed', `Use ${allowed.join(' or ')}.`)).body), { Allow: allowed.join(', ') });
    if (path === 'ledger') return ok(200, control.ledger());
    if (path === 'ledger/summary') return ok(200, control.summary());
    if (path === 'faults') {
      if (method === 'GET') return ok(200, { faults: control.faults() });
      if (method === 'DELETE') {
        control.clearFaults();
        return ok(200, { faults: [] });
      }
      const body = parse();
      if (!body) return;
      try {
        return ok(201, control.addFault(body.value as FaultInput));
      } catch (e) {
        if (e instanceof FaultError) return bad(400, 'validation_failed', e.message, e.param);
        throw e;
      }
    }
    if (path === 'reset') {
      control.reset();
      return ok(200, { reset: true });
    }
    if (method === 'GET') return ok(200, control.config());
    const body = parse();
    if (!body) return;
    if (!isPlainObject(body.value)) return bad(400, 'validation_failed', 'The config patch must be a JSON object.');
    try {
      return ok(200, control.configure(body.value as SandboxConfigInput));
    } catch (e) {
      if (e instanceof ConfigError) return bad(400, 'validation_failed', e.message);
      throw e;
    }
  }

  // ------------------------------------------------------------------ the API (/v1)
  async function handleApi(req: IncomingMessage, res: ServerResponse, requestId: string, segs: string[], query: URLSearchParams, raw: Buffer | null, tooLarge: boolean): Promise<void> {
    const method = req.method ?? 'GET';
    const now = Date.now();
    engine.requests++;
    engine.observe(now);

    // CORS preflight: no auth, no counting.
    if (method === 'OPTIONS') {
      return send(res, requestId, 204, null, {
        'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE, OPTIONS',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
        'Access-Control-Max-Age': '600',
      });
    }

    // Route resolution first: unknown path 404, wrong method 405 (no auth needed).
    const route = segs[1] === 'v1' && segs[0] === '' ? resolve(segs.slice(2)) : null;
    if (!route) return fail(res, requestId, 404, T.invalid, 'resource_not_found', `No route ${method} ${segs.join('/') || '/'}.`);
    if (route.method !== method)
      return reply(res, requestId, engine.fail(405, err(T.invalid, 'method_not_allowed', `${method} is not allowed on this path; use ${route.method}.`)), { Allow: route.method });

    // §5.2: a key in the query string is refused, even next to a valid header.
    for (const [name, value] of query) {
      if (KEY_PARAM_NAMES.has(name.toLowerCase()) || engine.isIssuedKey(value))
        return fail(res, requestId, 400, T.invalid, 'request_refused', `API keys are not accepted in the query string (parameter "${name}"); send "Authorization: Bearer <API_KEY>".`, name);
    }

    // §5: authentication.
    const auth = engine.authenticate(req.headers.authorization, now);
    if ('status' in auth) return reply(res, requestId, auth);
    const { key, account } = auth;

    // §8: the identified key's call counts once; headers from here on.
    const rate = engine.countCall(key, account, now);
    const rl = rate.headers;
    if (rate.exceeded)
      return fail(res, requestId, 429, T.rate, 'rate_limit_exceeded', `Rate limit of ${account.rate_limit} requests per ${engine.config.window_seconds} s reached for this key; the request was not processed.`, undefined, { ...rl, 'Retry-After': String(rate.retryAfter) });

    const accountFailure = engine.accountCheck(account);
    if (accountFailure) return reply(res, requestId, accountFailure, rl);
    if (route.scope && !key.scopes.includes(route.scope))
      return fail(res, requestId, 403, T.permission, 'insufficient_scope', `This key lacks the scope ${route.scope}, which ${route.method} ${segs.slice(2).join('/')} needs; issue a new key with it.`, undefined, rl);

    // Bodies of POST routes.
    let body: Record<string, unknown> = {};
    let idemKey: string | null = null;
    if (method === 'POST') {
      const ct = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
      if (ct !== 'application/json')
        return fail(res, requestId, 400, T.invalid, 'request_refused', 'The request body must be JSON, sent with "Content-Type: application/json".', 'Content-Type', rl);
      if (tooLarge)
        return fail(res, requestId, 400, T.invalid, 'request_refused', `The request body exceeds ${engine.config.max_body_bytes} bytes.`, undefined, rl);
      let parsed: unknown;
      try {
        parsed = JSON.parse(raw ? raw.toString('utf8') : '');
      } catch {
        return fail(res, requestId, 400, T.invalid, 'request_refused', 'The request body is not valid JSON.', undefined, rl);
      }
      if (!isPlainObject(parsed))
        return fail(res, requestId, 422, T.invalid, 'validation_failed', `The request body must be a JSON object, got ${parsed === null ? 'null' : Array.isArray(parsed) ? 'array' : typeof parsed}.`, undefined, rl);
      body = parsed;
      for (const [name, value] of Object.entries(body)) {
        if (KEY_PARAM_NAMES.has(name.toLowerCase()) || (typeof value === 'string' && engine.isIssuedKey(value)))
          return fail(res, requestId, 400, T.invalid, 'request_refused', `API keys are not accepted in the request body (field "${name}"); send "Authorization: Bearer <API_KEY>".`, name, rl);
      }
      const ik = req.headers['idempotency-key'];
      if (ik !== undefined) {
        const v = Array.isArray(ik) ? ik.join(', ') : ik;
        if (v.length < 1 || v.length > 255)
          return fail(res, requestId, 422, T.invalid, 'validation_failed', 'Idempotency-Key must be 1 to 255 characters long.', 'Idempotency-Key', rl);
        idemKey = v;
      }
      const unknownQuery = engine.unknownQuery(query, []);
      if (unknownQuery) return reply(res, requestId, unknownQuery, rl);
    }

    const ctx: Ctx = { requestId, key, account, idempotencyKey: idemKey };
    const fault = faults.match(method, segs);
    if (fault?.kind === 'rate_limit_429') {
      const retry = fault.retry_after ?? engine.secondsToReset(now);
      return fail(res, requestId, 429, T.rate, 'rate_limit_exceeded', 'Rate limit reached (injected fault); the request was not processed.', undefined, {
        ...rl,
        'X-RateLimit-Remaining': '0',
        'Retry-After': String(retry),
      });
    }

    // §4 idempotency: replay, conflict, or mark in progress.
    if (idemKey !== null) {
      const fingerprint = sha256(`${route.name}\n${canonicalJson(body)}`);
      const begun = engine.idemBegin(account.id, idemKey, fingerprint, now);
      if (begun && 'conflict' in begun) return reply(res, requestId, begun.conflict, rl);
      if (begun && 'replay' in begun) {
        if (fault?.kind === 'slow') await sleep(fault.delay_ms ?? 1000);
        if (fault && (fault.kind === 'reset_before_commit' || fault.kind === 'reset_after_commit')) return destroy(req, res);
        if (fault && (fault.kind === 'error_500_before_commit' || fault.kind === 'error_500_after_commit'))
          return fail(res, requestId, 500, T.api, 'internal_error', 'Internal error (injected fault); retry once.', undefined, rl);
        return send(res, requestId, begun.replay.status, begun.replay.body, rl, { 'Idempotent-Replay': 'true' });
      }
    }
    const release = (): void => {
      if (idemKey !== null) engine.idemRelease(account.id, idemKey);
    };

    try {
      if (fault?.kind === 'slow') await sleep(fault.delay_ms ?? 1000);
      if (fault?.kind === 'error_500_before_commit') {
        release();
        return fail(res, requestId, 500, T.api, 'internal_error', 'Internal error before commit (injected fault); nothing happened; retry once.', undefined, rl);
      }
      if (fault?.kind === 'reset_before_commit') {
        release();
        return destroy(req, res);
      }

      const t = Date.now();
      engine.observe(t);
      let result: Reply;
      switch (route.name) {
        case 'messages.batch':
          result = engine.sendBatch(ctx, body);
          break;
        case 'messages.send':
          result = engine.sendMessages(ctx, body);
          break;
        case 'contacts.bulk':
          result = engine.bulkContacts(ctx, body, t);
          break;
        case 'messages.get':
          result = engine.unknownQuery(query, []) ?? engine.getMessage(ctx, route.id!);
          break;
        case 'jobs.get':
          result = engine.unknownQuery(query, []) ?? engine.getJob(ctx, route.id!);
          break;
        case 'contacts.list':
          result = engine.listContacts(ctx, query);
          break;
        case 'attributes.list':
          result = engine.unknownQuery(query, []) ?? engine.listAttributes(ctx);
          break;
        case 'account.get':
          result = engine.unknownQuery(query, []) ?? engine.getAccount(ctx);
          break;
      }
      const text = JSON.stringify(result.body);
      if (idemKey !== null) {
        if (result.status >= 200 && result.status < 300) engine.idemCommit(account.id, idemKey, result.status, text, Date.now());
        else release();
      }
      if (fault?.kind === 'error_500_after_commit')
        return fail(res, requestId, 500, T.api, 'internal_error', 'Internal error after commit (injected fault); retry once.', undefined, rl);
      if (fault?.kind === 'reset_after_commit') return destroy(req, res);
      send(res, requestId, result.status, text, rl, result.headers);
    } catch (e) {
      release();
      throw e;
    }
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const requestId = newId('req');
    const max = engine.config.max_body_bytes;
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > max;
    req.on('data', (c: Buffer) => {
      if (tooLarge) return;
      size += c.length;
      if (size > max) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(c);
    });
    req.on('error', () => {});
    req.on('end', () => {
      const raw = chunks.length === 0 ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      dispatch(req, res, requestId, raw, tooLarge).catch((e: unknown) => {
        console.error(`[sandbox] ${requestId} ${req.method} ${req.url}: unexpected error`, e);
        if (!res.headersSent && !res.destroyed) {
          try {
            fail(res, requestId, 500, T.api, 'internal_error', 'Unexpected sandbox error; retry once.');
          } catch {
            res.destroy();
          }
        }
      });
    });
  }

  async function dispatch(req: IncomingMessage, res: ServerResponse, requestId: string, raw: Buffer | null, tooLarge: boolean): Promise<void> {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const rawPath = q === -1 ? url : url.slice(0, q);
    const query = new URLSearchParams(q === -1 ? '' : url.slice(q + 1));
    let segs: string[];
    try {
      segs = rawPath.split('/').map((s) => decodeURIComponent(s));
    } catch {
      engine.requests++;
      return fail(res, requestId, 404, T.invalid, 'resource_not_found', 'The path is not valid percent-encoding.');
    }
    if (segs[0] === '' && segs[1] === '__sandbox') return handleControl(req, res, requestId, segs, raw, tooLarge);
    return handleApi(req, res, requestId, segs, query, raw, tooLarge);
  }

  const server = createServer({ keepAliveTimeout: 10_000 }, onRequest);
  server.on('clientError', (e: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || (e.code === 'ECONNRESET')) {
      socket.destroy();
      return;
    }
    const status = e.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify(engine.fail(400, err(T.invalid, 'request_refused', `Malformed HTTP request (${e.code ?? 'parse error'}).`)).body);
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json\r\nX-Request-Id: ${newId('req')}\r\n` +
        `Access-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const origin = `http://${hostPart}:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    control,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
