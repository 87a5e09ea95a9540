/**
 * The API (/v1): the documented order of checks (sandbox/ASSUMPTIONS.md "Order of checks"), then injected
 * faults, idempotency, and the resource handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accountCheck, authenticate, keyInBody, keyInQuery, ownKeyInQuery } from './auth.ts';
import type { EventKind } from './events.ts';
import type { Faults } from './faults.ts';
import type { RawBody } from './http/body.ts';
import { PREFLIGHT, destroyConnection, sendJson } from './http/headers.ts';
import { parseJsonObject } from './http/json-body.ts';
import type { Route } from './http/routes.ts';
import { resolveRoute } from './http/routes.ts';
import type { Ctx, Reply } from './replies.ts';
import { unknownQuery } from './replies.ts';
import { getAccount } from './resources/account.ts';
import { listAttributes } from './resources/attributes.ts';
import type { State } from './state.ts';
import { T, canonicalJson, err, sha256 } from './util.ts';

export interface ApiRequest {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  /** Decoded path segments; null when the percent-encoding is broken (a 404). */
  segs: string[] | null;
  query: URLSearchParams;
  body: RawBody;
}

/** How a `slow` fault holds a request: real time unless the sandbox was started with an injected sleep. */
type Hold = (ms: number) => Promise<void>;

const realHold: Hold = (ms) => new Promise((r) => setTimeout(r, ms));

/** One line for the inbox: what a successful write did. */
function describeWrite(r: Reply): string {
  const data = (r.body as { data: unknown }).data;
  if (!Array.isArray(data)) return `job ${(data as { id: string }).id}, ${(data as { total: number }).total} rows queued`;
  const failed = data.filter((d: { error?: unknown }) => d.error !== undefined).length;
  return `${data.length - failed} sent, ${failed} row error${failed === 1 ? '' : 's'}`;
}

/** Runs the resource handler of a route that passed every check. */
function runRoute(state: State, route: Route, ctx: Ctx, body: Record<string, unknown>, query: URLSearchParams, now: number): Reply {
  const noQuery = (): Reply | null => unknownQuery(state.fail, query, []);
  const createdAt = new Date(now).toISOString();
  switch (route.name) {
    case 'messages.batch':
      return state.messages.sendBatch(ctx, body, createdAt);
    case 'messages.send':
      return state.messages.sendToMany(ctx, body, createdAt);
    case 'contacts.bulk':
      return state.jobs.bulk(ctx, body, now);
    case 'messages.get':
      return noQuery() ?? state.messages.get(ctx, route.id!);
    case 'jobs.get':
      return noQuery() ?? state.jobs.get(ctx, route.id!);
    case 'contacts.list':
      return state.contacts.list(ctx, query);
    case 'attributes.list':
      return noQuery() ?? listAttributes(ctx);
    case 'account.get':
      return noQuery() ?? getAccount(ctx);
  }
}

export function apiHandler(state: State, faults: Faults, hold: Hold = realHold): (r: ApiRequest) => Promise<void> {
  const fail = state.fail;
  return async ({ req, res, requestId, segs, query, body: rawBody }) => {
    const method = req.method ?? 'GET';
    const now = state.now();
    // The path only: a refused query string may carry a key.
    const routeText = `${method} ${(req.url ?? '/').split('?')[0]}`.slice(0, 120);
    let who: string | null = null;
    const note = (kind: EventKind, status: number, detail: string): void =>
      state.events.add({ at: new Date(state.now()).toISOString(), kind, route: routeText, status, request_id: requestId, key: who, detail });
    const noteFailure = (r: Reply): void => {
      if (r.status === 429) note('rate_limited', 429, 'not processed');
      else if (r.status === 500) note('fault', 500, 'injected 500');
      else if (r.status >= 400 && method === 'POST') note('refused', r.status, (r.body as { error: { code: string } }).error.code);
    };
    const reply = (r: Reply, rl?: Record<string, string>): void => {
      noteFailure(r);
      sendJson(res, requestId, r.status, JSON.stringify(r.body), rl, r.headers);
    };
    const drop = (kind: string): void => {
      note('fault', 0, `injected ${kind}: connection closed`);
      destroyConnection(req, res);
    };
    state.requests++;
    state.version++;

    // CORS preflight: no auth, no counting.
    if (method === 'OPTIONS') return sendJson(res, requestId, 204, null, PREFLIGHT);

    const auth = authenticate(fail, state.keys, state.accounts, req.headers.authorization, now);
    // §8: every call of an identified key counts once, whatever its answer; an unidentified call is not counted.
    const rate = 'status' in auth ? null : state.rates.count(auth.key, auth.account, now);
    if (!('status' in auth)) who = auth.key.key;
    const rl = rate?.headers;
    const tooMany = (): void =>
      reply(fail(429, err(T.rate, 'rate_limit_exceeded', `Rate limit reached for this key (${rate!.headers['X-RateLimit-Limit']} requests per ${state.config.window_seconds} s); the request was not processed.`)), { ...rl, 'Retry-After': String(rate!.retryAfter) });
    /** Answers that come before authentication in the order of checks still carry an identified key's headers. */
    const early = (r: Reply): void => (rate?.exceeded ? tooMany() : reply(r, rl));

    // Route resolution first: unknown path 404, wrong method 405 (no valid key needed).
    const route = segs && segs[1] === 'v1' && segs[0] === '' ? resolveRoute(segs.slice(2)) : null;
    if (!segs) return early(fail(404, err(T.invalid, 'resource_not_found', 'The path is not valid percent-encoding.')));
    if (!route) return early(fail(404, err(T.invalid, 'resource_not_found', `No route ${method} ${segs.join('/') || '/'}.`)));
    if (route.method !== method) return early(fail(405, err(T.invalid, 'method_not_allowed', `${method} is not allowed on this path; use ${route.method}.`), { Allow: route.method }));

    // §5.2: a key in the query string is refused, even next to a valid header (by name or shape: no oracle).
    const queryKey = keyInQuery(query) ?? ('status' in auth ? null : ownKeyInQuery(query, auth.key));
    if (queryKey !== null)
      return early(fail(400, err(T.invalid, 'request_refused', `API keys are not accepted in the query string (parameter "${queryKey}"); send "Authorization: Bearer <API_KEY>".`, queryKey)));

    // §5: authentication, then the window.
    if ('status' in auth) return reply(auth);
    const { key, account } = auth;
    if (rate!.exceeded) return tooMany();

    const accountFailure = accountCheck(fail, account);
    if (accountFailure) return reply(accountFailure, rl);
    if (route.scope && !key.scopes.includes(route.scope))
      return reply(fail(403, err(T.permission, 'insufficient_scope', `This key lacks the scope ${route.scope}, which ${route.method} ${segs.slice(2).join('/')} needs; issue a new key with it.`)), rl);

    // Bodies of POST routes.
    let body: Record<string, unknown> = {};
    let idemKey: string | null = null;
    if (method === 'POST') {
      const parsed = parseJsonObject(fail, req, rawBody, { maxBytes: state.config.max_body_bytes, maxDepth: state.config.max_json_depth });
      if ('status' in parsed) return reply(parsed, rl);
      body = parsed.value;
      const bodyKey = keyInBody(body, key);
      if (bodyKey !== null)
        return reply(fail(400, err(T.invalid, 'request_refused', `API keys are not accepted in the request body (field "${bodyKey}"); send "Authorization: Bearer <API_KEY>".`, bodyKey)), rl);
      const ik = req.headers['idempotency-key'];
      if (ik !== undefined) {
        const v = Array.isArray(ik) ? ik.join(', ') : ik;
        if (v.length < 1 || v.length > 255) return reply(fail(422, err(T.invalid, 'validation_failed', 'Idempotency-Key must be 1 to 255 characters long.', 'Idempotency-Key')), rl);
        idemKey = v;
      }
      const unknown = unknownQuery(fail, query, []);
      if (unknown) return reply(unknown, rl);
    }

    const ctx: Ctx = { requestId, key, account, idempotencyKey: idemKey };
    const fault = faults.match(method, segs);
    const internal = (message: string): void => reply(fail(500, err(T.api, 'internal_error', message)), rl);
    const slow = (ms: number): Promise<void> => {
      note('fault', 0, `injected slow: held ${ms} ms`);
      return hold(ms);
    };
    if (fault?.kind === 'rate_limit_429') {
      const retry = fault.retry_after ?? rate!.retryAfter;
      return reply(fail(429, err(T.rate, 'rate_limit_exceeded', 'Rate limit reached (injected fault); the request was not processed.')), { ...rl, 'X-RateLimit-Remaining': '0', 'Retry-After': String(retry) });
    }

    // §4 idempotency: replay, conflict, or mark in progress.
    if (idemKey !== null) {
      const fingerprint = sha256(`${route.name}\n${canonicalJson(body)}`);
      const begun = state.idempotency.begin(account.id, idemKey, fingerprint, now);
      if (begun && 'conflict' in begun) return reply(begun.conflict, rl);
      if (begun && 'replay' in begun) {
        if (fault?.kind === 'slow') await slow(fault.delay_ms ?? 1000);
        if (fault?.kind === 'reset_before_commit' || fault?.kind === 'reset_after_commit') return drop(fault.kind);
        if (fault?.kind === 'error_500_before_commit' || fault?.kind === 'error_500_after_commit') return internal('Internal error (injected fault); retry once.');
        note('replay', begun.replay.status, `Idempotency-Key ${idemKey}`);
        return sendJson(res, requestId, begun.replay.status, begun.replay.body, rl, { 'Idempotent-Replay': 'true' });
      }
    }
    const release = (): void => {
      if (idemKey !== null) state.idempotency.release(account.id, idemKey);
    };

    try {
      if (fault?.kind === 'slow') await slow(fault.delay_ms ?? 1000);
      if (fault?.kind === 'error_500_before_commit') {
        release();
        return internal('Internal error before commit (injected fault); nothing happened; retry once.');
      }
      if (fault?.kind === 'reset_before_commit') {
        release();
        return drop(fault.kind);
      }
      const t = state.now();
      state.observe(t);
      const result = runRoute(state, route, ctx, body, query, t);
      const text = JSON.stringify(result.body);
      if (idemKey !== null) {
        if (result.status >= 200 && result.status < 300) state.idempotency.commit(account.id, idemKey, result.status, text, state.now());
        else release();
      }
      if (result.status < 300 && method === 'POST') note(route.name === 'contacts.bulk' ? 'import' : 'send', result.status, describeWrite(result));
      else noteFailure(result);
      if (fault?.kind === 'error_500_after_commit') return internal('Internal error after commit (injected fault); retry once.');
      if (fault?.kind === 'reset_after_commit') return drop(fault.kind);
      sendJson(res, requestId, result.status, text, rl, result.headers);
    } catch (e) {
      release();
      throw e;
    }
  };
}
