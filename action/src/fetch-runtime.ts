/**
 * The action's runtime: the shared layer's `Runtime` over Node's built-in fetch (Node 24 ships undici
 * inside the binary) instead of the undici 8 package of src/runtime/node-runtime.ts. Same contract as
 * src/runtime/undici-transport.ts — one request, a whole-request timeout, headers lower-cased, the raw
 * body; rejects only when no complete answer came — and nothing else: retries, pacing, chunking and
 * polling stay in the shared client. Why: bundling undici 8 costs 0.78 MB and ~50 ms of start-up per
 * step (bench/action-startup.ts).
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Runtime, Transport } from '../../src/index.ts';

export function fetchTransport(options: { timeoutMs?: number } = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return async (req) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const response = await fetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal, redirect: 'manual' });
    const body = await response.text();
    const headers: Record<string, string | undefined> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    return { status: response.status, headers, body };
  };
}

export function fetchRuntime(options: { timeoutMs?: number } = {}): Runtime {
  return {
    transport: fetchTransport(options),
    sleep: (ms, signal) => delay(ms, undefined, { signal }),
    now: () => Date.now(),
    random: () => Math.random(),
  };
}
