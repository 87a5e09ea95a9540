import type { Transport } from '../runtime.ts';

/**
 * Transport over Node's built-in fetch (Node 24 ships undici inside the binary): the action uses it so
 * its bundle carries no HTTP client (the undici 8 package costs 0.78 MB and ~20 ms of start-up per step,
 * bench/action-startup.ts). Same contract as undici-transport.ts: one request, a whole-request timeout,
 * headers lower-cased, the raw body; rejects only when no complete answer came.
 */
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
