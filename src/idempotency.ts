import { createHash, hash, randomUUID } from 'node:crypto';
import { canonicalJson } from './canonical-json.ts';
import { inputError } from './errors.ts';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255; // spec §8

/** One-shot `crypto.hash` where the runtime has it (no Hash object per call: bulk writes hash a slot per row). */
export function sha256Hex(text: string): string {
  return typeof hash === 'function' ? hash('sha256', text, 'hex') : createHash('sha256').update(text).digest('hex');
}

/** A caller-supplied key must fit the header and the spec's bound; refused before anything is sent. */
export function validateIdempotencyKey(key: string, param = 'idempotencyKey'): string {
  if (typeof key !== 'string' || key.length === 0) throw inputError('The idempotency key must be a non-empty string.', param);
  if (key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
    throw inputError(`The idempotency key is ${key.length} characters long; the service takes at most ${MAX_IDEMPOTENCY_KEY_LENGTH}.`, param);
  }
  if (!/^[\x21-\x7e]+$/.test(key)) throw inputError('The idempotency key may hold only visible ASCII characters (no spaces).', param);
  return key;
}

/**
 * The key of chunk `chunk` out of `chunks`: the base itself for a single call; otherwise `<base>:chunk-N`,
 * so no two chunks ever share a key with different bodies (that would be `idempotency_key_reused`).
 */
export function chunkIdempotencyKey(base: string, chunk: number, chunks: number): string {
  if (chunks <= 1) return base;
  const suffix = `:chunk-${chunk}`;
  const stem = base.length + suffix.length <= MAX_IDEMPOTENCY_KEY_LENGTH ? base : sha256Hex(base).slice(0, 48);
  return `${stem}${suffix}`;
}

/**
 * The key of one half of a chunk the service refused as too large (413): `<key>.0` / `<key>.1`, so it
 * differs from the whole chunk's key (whose body differs) and is the same on every re-run.
 */
export function splitIdempotencyKey(key: string, half: 0 | 1): string {
  const suffix = `.${half}`;
  const stem = key.length + suffix.length <= MAX_IDEMPOTENCY_KEY_LENGTH ? key : sha256Hex(key).slice(0, 48);
  return `${stem}${suffix}`;
}

/** A deterministic key from the parts that identify one logical write and the payload's hash. */
export function deriveIdempotencyKey(prefix: string, parts: readonly (string | number)[], payload: unknown): string {
  const digest = sha256Hex(`${parts.map(String).join('\u0000')}\u0000${canonicalJson(payload)}`);
  return `${prefix}-${digest.slice(0, 48)}`;
}

export function randomIdempotencyKey(): string {
  return randomUUID();
}
