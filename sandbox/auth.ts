/** §5 authentication: Bearer keys, expiry and revocation, account state, and keys sent where they must not be. */
import type { Fail, Reply } from './replies.ts';
import type { AccountConfig, KeyConfig } from './types.ts';
import { T, err } from './util.ts';

/** Query or body names that carry a key; refused wherever they appear (§5.2). */
export const KEY_PARAM_NAMES = new Set(['api_key', 'apikey', 'api-key', 'key', 'token', 'access_token', 'authorization']);

export interface Caller {
  key: KeyConfig;
  account: AccountConfig;
}

/** The key behind an Authorization header, or the 401 reply. */
export function authenticate(fail: Fail, keys: Map<string, KeyConfig>, accounts: Map<string, AccountConfig>, header: string | undefined, now: number): Caller | Reply {
  const m = header === undefined ? null : /^Bearer[ ]+(\S+)\s*$/i.exec(header);
  if (!m) return fail(401, err(T.auth, 'missing_api_key', 'No API key: send it as "Authorization: Bearer <API_KEY>".'));
  const key = keys.get(m[1]!);
  const account = key && accounts.get(key.account);
  if (!key || !account) return fail(401, err(T.auth, 'invalid_api_key', 'The API key matches no issued key.'));
  if (key.revoked) return fail(401, err(T.auth, 'api_key_revoked', 'This API key was revoked; issue a new key.'));
  if (key.expires_at !== undefined && Date.parse(key.expires_at) <= now)
    return fail(401, err(T.auth, 'api_key_expired', `This API key expired at ${key.expires_at}; issue a new key.`));
  return { key, account };
}

/** Account state checks (§5.6), after the key is identified. */
export function accountCheck(fail: Fail, account: AccountConfig): Reply | null {
  if (account.status !== 'active') {
    const state = account.status === 'deleting' ? 'being deleted' : account.status === 'trashed' ? 'in the trash' : 'suspended';
    return fail(403, err(T.permission, 'account_suspended', `The account is ${state}; a new key does not help.`));
  }
  if (!account.plan.running)
    return fail(403, err(T.permission, 'subscription_expired', 'The account has no running plan; the same key works again after renewal.'));
  return null;
}

/**
 * A value that looks like a secret key, judged by its shape only (`sk_…`, or a Bearer credential), never by
 * whether such a key is issued: otherwise the answer would tell a caller which guesses exist.
 */
const KEY_SHAPE = /^(?:sk_[A-Za-z0-9_]{6,}|bearer\s+\S+)$/i;

/** §5.2, before authentication: the query parameter carrying a key by its name or shape, if any. */
export function keyInQuery(query: URLSearchParams): string | null {
  for (const [name, value] of query) if (KEY_PARAM_NAMES.has(name.toLowerCase()) || KEY_SHAPE.test(value)) return name;
  return null;
}

/** §5.2, after authentication: the caller's own key (any shape) as a query value, if any. */
export function ownKeyInQuery(query: URLSearchParams, own: KeyConfig): string | null {
  for (const [name, value] of query) if (value === own.key) return name;
  return null;
}

/** §5.2: the top-level body field carrying a key by name, by shape, or as the caller's own key. */
export function keyInBody(body: Record<string, unknown>, own: KeyConfig): string | null {
  for (const [name, value] of Object.entries(body))
    if (KEY_PARAM_NAMES.has(name.toLowerCase()) || (typeof value === 'string' && (KEY_SHAPE.test(value) || value === own.key))) return name;
  return null;
}
