import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import type { Runtime } from '../runtime.ts';
import { undiciTransport } from './undici-transport.ts';

/**
 * The runtime for plain Node (the GitHub Action, tests, benches): undici for HTTP, real timers and
 * clock. Not part of the n8n package, whose adapter injects n8n's helpers instead.
 */
export function nodeRuntime(options: { dispatcher?: Dispatcher; timeoutMs?: number } = {}): Runtime {
  return {
    transport: undiciTransport(options),
    sleep: (ms, signal) => delay(ms, undefined, { signal }),
    now: () => Date.now(),
    random: () => Math.random(),
  };
}
