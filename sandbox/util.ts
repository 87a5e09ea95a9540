/** Small helpers: ids, error objects, canonical JSON. */
import { createHash, randomBytes } from 'node:crypto';
import type { ErrorObject } from './types.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
let pool = randomBytes(8192);
let poolAt = 0;

/** Random base62 string (rejection sampling, no modulo bias). */
export function base62(length: number): string {
  let out = '';
  while (out.length < length) {
    if (poolAt >= pool.length) {
      pool = randomBytes(8192);
      poolAt = 0;
    }
    const b = pool[poolAt++]!;
    if (b < 248) out += ALPHABET[b % 62];
  }
  return out;
}

export function newId(prefix: 'msg' | 'con' | 'job' | 'req' | 'flt'): string {
  return `${prefix}_${base62(prefix === 'req' ? 20 : 16)}`;
}

/** Error families. Only the first two are named by the spec; the other three are sandbox choices. */
export const T = {
  invalid: 'invalid_request_error',
  auth: 'authentication_error',
  permission: 'permission_error',
  rate: 'rate_limit_error',
  api: 'api_error',
} as const;

export function err(type: string, code: string, message: string, param?: string): ErrorObject {
  return param === undefined ? { type, code, message } : { type, code, message, param };
}

/** JSON with object keys sorted at every depth: the fingerprint of an idempotent request body. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(v: unknown): unknown {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) return v.map(sortKeys);
  const src = v as Record<string, unknown>;
  // A null-prototype object so that a "__proto__" key stays an ordinary key.
  const out = Object.create(null) as Record<string, unknown>;
  for (const k of Object.keys(src).sort()) out[k] = sortKeys(src[k]);
  return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function clone<T>(v: T): T {
  return structuredClone(v);
}

export const E164 = /^\+[1-9]\d{6,14}$/;
/** A sane address: local@domain.tld, no spaces or angle brackets, at most 254 characters. */
const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,}$/;
export function isEmail(s: string): boolean {
  return s.length <= 254 && EMAIL.test(s);
}

export function typeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('base64');
}
