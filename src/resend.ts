import type { BulkOutcome, ItemResult } from './types.ts';

/** One call to make again: the inputs of one chunk (caller's indexes, in order) and the key it used. */
export interface Resend {
  idempotencyKey: string;
  indexes: number[];
}

/**
 * The calls that settle every `unknown` result: for each key that has an unknown input, every input
 * that went out under that key (the whole chunk: the body must be identical, or the service answers
 * `idempotency_key_reused`). Send each again as one call with its key; it replays or completes.
 */
export function resendsForUnknown(outcome: Pick<BulkOutcome, 'results'>): Resend[] {
  const byKey = new Map<string, ItemResult[]>();
  for (const r of outcome.results) {
    const list = byKey.get(r.call.idempotencyKey) ?? [];
    list.push(r);
    byKey.set(r.call.idempotencyKey, list);
  }
  const resends: Resend[] = [];
  for (const [idempotencyKey, results] of byKey) {
    if (results.some((r) => r.status === 'unknown')) resends.push({ idempotencyKey, indexes: results.map((r) => r.index).sort((a, b) => a - b) });
  }
  return resends;
}
