import type { WaitReason } from './rate-limiter.ts';
import type { ClientEvent } from './request-sender.ts';
import type { ChunkEvent } from './types.ts';

/** Seconds for a person: one decimal under 10 s. */
export function formatSeconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** Why a call waits, in words that stay true at 9 of 600 calls used (see `WaitReason`). */
const WAIT_REASONS: Record<WaitReason, string> = {
  retry_after: 'the service answered 429 with Retry-After',
  window_spent: 'no calls left for this process until it resets (counting calls in flight and, when the key is shared, what the others are expected to spend)',
  in_flight: 'calls in flight may have used what is left of the rate window; waiting for their answers to tell',
  share_spacing: 'the API key is shared with other processes (seen spending the same rate window), so this one spaces its calls to spend its share of what is left evenly until the reset',
};

/** A client event (retry, rate-limit wait) as one log line. Events never carry the API key. */
export function describeClientEvent(event: ClientEvent): string {
  if (event.type === 'retry') {
    return `Retrying ${event.method} ${event.path} after ${event.code} (retry ${event.retry}) in ${formatSeconds(event.delayMs)}${event.requestId ? ` [request ${event.requestId}]` : ''}.`;
  }
  return `Waiting ${formatSeconds(event.ms)} for the rate window (${WAIT_REASONS[event.reason]}).`;
}

/** A chunk's end as one progress line; `what` names its items (e.g. `messages`, `contacts`). */
export function describeChunkEvent(event: ChunkEvent, what: string): string {
  const head = `Chunk ${event.chunk + 1}/${event.chunks} (${event.count} ${what})`;
  switch (event.status) {
    case 'done':
      return `${head}: done in ${formatSeconds(event.ms ?? 0)}${event.replayed ? ', replayed (already done by an earlier attempt)' : ''}.`;
    case 'failed':
      return `${head}: refused as a whole (${event.error?.code}).`;
    case 'unknown':
      return `${head}: outcome unknown (${event.error?.code}); send again with idempotency key ${event.idempotencyKey}: it replays or completes, never twice.`;
    case 'skipped':
      return `${head}: not attempted (an earlier chunk failed as a whole).`;
  }
}
