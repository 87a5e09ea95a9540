/** The shape every handler returns, and the few error replies more than one resource builds. */
import type { AccountConfig, ErrorObject, KeyConfig } from './types.ts';
import { T, err } from './util.ts';

export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** Who is calling, for the handlers and the ledger rows they write. */
export interface Ctx {
  requestId: string;
  key: KeyConfig;
  account: AccountConfig;
  idempotencyKey: string | null;
}

/** Builds error replies with the configured `doc_url`. */
export type Fail = (status: number, e: ErrorObject, headers?: Record<string, string>) => Reply;

export function failWith(docsUrl: () => string): Fail {
  return (status, e, headers) => ({ status, body: { error: { ...e, doc_url: `${docsUrl()}#${e.code}` } }, headers });
}

export function notFound(fail: Fail, what: string, id: string): Reply {
  return fail(404, err(T.invalid, 'resource_not_found', `No ${what} with id "${id}" in this account.`, 'id'));
}

/** Unknown top-level fields: 422 naming them (param when exactly one). */
export function unknownFields(fail: Fail, body: Record<string, unknown>, allowed: string[]): Reply | null {
  const bad = Object.keys(body).filter((k) => !allowed.includes(k));
  if (bad.length === 0) return null;
  return fail(422, err(T.invalid, 'validation_failed', `Unknown field${bad.length > 1 ? 's' : ''} ${bad.map((b) => `"${b}"`).join(', ')}; allowed: ${allowed.join(', ')}.`, bad.length === 1 ? bad[0] : undefined));
}

export function unknownQuery(fail: Fail, query: URLSearchParams, allowed: string[]): Reply | null {
  const bad = [...new Set([...query.keys()].filter((k) => !allowed.includes(k)))];
  if (bad.length === 0) return null;
  return fail(422, err(T.invalid, 'validation_failed', `Unknown query parameter${bad.length > 1 ? 's' : ''} ${bad.map((b) => `"${b}"`).join(', ')}${allowed.length ? `; allowed: ${allowed.join(', ')}` : ''}.`, bad.length === 1 ? bad[0] : undefined));
}
