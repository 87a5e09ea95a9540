import { setTimeout as delay } from 'node:timers/promises';
import type { Runtime, Transport } from '../runtime.ts';

/**
 * Timers, clock and randomness of plain Node (the GitHub Action, tests, benches) around a transport:
 * `undiciTransport()` (the action, tests, benches) or `fetchTransport()` (Node's built-in undici, nothing
 * to bundle). Not part of the n8n package, whose adapter injects n8n's helpers instead.
 */
export function nodeRuntime(transport: Transport): Runtime {
  return {
    transport,
    sleep: (ms, signal) => delay(ms, undefined, { signal }),
    now: () => Date.now(),
    random: () => Math.random(),
  };
}
