/**
 * The API (/v1): the documented order of checks (sandbox/ASSUMPTIONS.md "Order of checks"), then injected
 * faults, idempotency, and the resource handler.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { accountCheck, authenticate, keyInBody, keyInQuery } from './auth.ts';
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
  segs: string[];
  query: URLSearchParams;
  body: RawBody;
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
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

export function apiHandler(state: State, faults: Faults): (r: ApiRequest) => Promise<void> {
  const fail = state.fail;
  return async ({ req, res, requestId, segs, query, body: rawBody }) => {
    const method = req.method ?? 'GET';
    const now = state.now();
    const reply = (r: Reply, rl?: Record<string, string>): void => sendJson(res, requestId, r.status, JSON.stringify(r.body), rl, r.headers);
    state.requests++;
    state.jobs.observe(now);

    // CORS preflight: no auth, no counting.
    if (method === 'OPTIONS') return sendJson(res, requestId, 204, null, PREFLIGHT);

    // Route resolution first: unknown path 404, wrong method 405 (no auth needed).
    const route = segs[1] === 'v1' && segs[0] === '' ? resolveRoute(segs.slice(2)) : null;
    if (!route) return reply(fail(404, err(T.invalid, 'resource_not_found', `No route ${method} ${segs.join('/') || '/'}.`)));
    if (route.method !== method)
      return reply(fail(405, err(T.invalid, 'method_not_allowed', `${method} is not allowed on this path; use ${route.method}.`)), { Allow: route.method });

    // §5.2: a key in the query string is refused, even next to a valid header.
    const queryKey = keyInQuery(state.keys, query);
    if (queryKey !== null)
      return reply(fail(400, err(T.invalid, 'request_refused', `API keys are not accepted in the query string (parameter "${queryKey}"); send "Authorization: Bearer <API_KEY>".`, queryKey)));

    // §5: authentication.
    const auth = authenticate(fail, state.keys, state.accounts, req.headers.authorization, now);
    if ('status' in auth) return reply(auth);
    const { key, account } = auth;

    // §8: the identified key's call counts once; headers from here on.
    const rate = state.rates.count(key, account, now);
    const rl = rate.headers;
    if (rate.exceeded)
      return reply(fail(429, err(T.rate, 'rate_limit_exceeded', `Rate limit of ${account.rate_limit} requests per ${state.config.window_seconds} s reached for this key; the request was not processed.`)), { ...rl, 'Retry-After': String(rate.retryAfter) });

    const accountFailure = accountCheck(fail, account);
    if (accountFailure) return reply(accountFailure, rl);
    if (route.scope && !key.scopes.includes(route.scope))
      return reply(fail(403, err(T.permission, 'insufficient_scope', `This key lacks the scope ${route.scope}, which ${route.method} ${segs.slice(2).join('/')} needs; issue a new key with it.`)), rl);

    // Bodies of POST routes.
    let body: Record<string, unknown> = {};
    let idemKey: string | null = null;
    if (method === 'POST') {
      const parsed = parseJsonObject(fail, req, rawBody, state.config.max_body_bytes);
      if ('status' in parsed) return reply(parsed, rl);
      body = parsed.value;
      const bodyKey = keyInBody(state.keys, body);
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
    if (fault?.kind === 'rate_limit_429') {
      const retry = fault.retry_after ?? state.rates.secondsToReset(now);
      return reply(fail(429, err(T.rate, 'rate_limit_exceeded', 'Rate limit reached (injected fault); the request was not processed.')), { ...rl, 'X-RateLimit-Remaining': '0', 'Retry-After': String(retry) });
    }

    // §4 idempotency: replay, conflict, or mark in progress.
    if (idemKey !== null) {
      const fingerprint = sha256(`${route.name}\n${canonicalJson(body)}`);
      const begun = state.idempotency.begin(account.id, idemKey, fingerprint, now);
      if (begun && 'conflict' in begun) return reply(begun.conflict, rl);
      if (begun && 'replay' in begun) {
        if (fault?.kind === 'slow') await sleep(fault.delay_ms ?? 1000);
        if (fault?.kind === 'reset_before_commit' || fault?.kind === 'reset_after_commit') return destroyConnection(req, res);
        if (fault?.kind === 'error_500_before_commit' || fault?.kind === 'error_500_after_commit') return internal('Internal error (injected fault); retry once.');
        return sendJson(res, requestId, begun.replay.status, begun.replay.body, rl, { 'Idempotent-Replay': 'true' });
      }
    }
    const release = (): void => {
      if (idemKey !== null) state.idempotency.release(account.id, idemKey);
    };

    try {
      if (fault?.kind === 'slow') await sleep(fault.delay_ms ?? 1000);
      if (fault?.kind === 'error_500_before_commit') {
        release();
        return internal('Internal error before commit (injected fault); nothing happened; retry once.');
      }
      if (fault?.kind === 'reset_before_commit') {
        release();
        return destroyConnection(req, res);
      }
      const t = state.now();
      state.jobs.observe(t);
      const result = runRoute(state, route, ctx, body, query, t);
      const text = JSON.stringify(result.body);
      if (idemKey !== null) {
        if (result.status >= 200 && result.status < 300) state.idempotency.commit(account.id, idemKey, result.status, text, state.now());
        else release();
      }
      if (fault?.kind === 'error_500_after_commit') return internal('Internal error after commit (injected fault); retry once.');
      if (fault?.kind === 'reset_after_commit') return destroyConnection(req, res);
      sendJson(res, requestId, result.status, text, rl, result.headers);
    } catch (e) {
      release();
      throw e;
    }
  };
}
