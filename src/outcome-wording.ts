import { describeError } from './error-wording.ts';
import { CLIENT_WORDS } from './surface-words.ts';
import type { SurfaceWords } from './surface-words.ts';
import type { ItemResult } from './types.ts';

/** The counts every outcome has (BulkOutcome, or an import's per-contact counts in its own words). */
export interface OutcomeCounts {
  sent: number;
  failed: number;
  unknown: number;
  notAttempted: number;
  /** Of `sent`, how many the service replayed from an earlier attempt. */
  replayed?: number;
}

export const RESEND_HINT = 'send again with the same keys: it replays or completes, never twice';

function sentence(text: string): string {
  return `${text.replace(/[.\s]+$/, '')}.`;
}

/** Counts the replays among an outcome's results. */
export function replayedCount(results: readonly ItemResult[]): number {
  return results.filter((r) => r.status === 'sent' && r.call.replayed).length;
}

/**
 * One line for a whole outcome, e.g. `998 sent, 1 failed, 1 unknown (send again with the same keys: it
 * replays or completes, never twice)`. Zero counts other than `sent` are left out.
 */
export function describeOutcome(counts: OutcomeCounts, words: { sent?: string } = {}): string {
  const parts = [`${counts.sent} ${words.sent ?? 'sent'}${counts.replayed ? ` (${counts.replayed} replayed: already done by an earlier attempt)` : ''}`];
  if (counts.failed) parts.push(`${counts.failed} failed`);
  if (counts.unknown) parts.push(`${counts.unknown} unknown (${RESEND_HINT})`);
  if (counts.notAttempted) parts.push(`${counts.notAttempted} not attempted`);
  return parts.join(', ');
}

/**
 * One line for one input's result, with what to do about it; `where` names the input in the host's
 * words (an item, a line of a file), its remedy the surface's settings. An unknown or not-attempted
 * result names the key that settles it.
 */
export function describeResult(result: ItemResult, where?: string, words: SurfaceWords = CLIENT_WORDS): string {
  const tail = where ? ` — ${where}` : '';
  switch (result.status) {
    case 'sent':
      return `Sent as ${result.id}${result.call.replayed ? ' (replayed: an earlier attempt had sent it; nothing was sent twice)' : ''}${tail}`;
    case 'failed':
      return describeError(result.error, { where, words });
    case 'unknown':
      return describeError(result.error, { where, words, idempotencyKey: result.call.idempotencyKey });
    case 'not_attempted':
      return `${sentence(result.error.message)} Nothing was sent for it. ${result.error.remedyIn(words)} Its key would have been ${result.call.idempotencyKey}${tail}`;
  }
}
