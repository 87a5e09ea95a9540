import { request } from 'undici';
import type { Dispatcher } from 'undici';
import type { Transport } from '../runtime.ts';
import { attemptTimeoutError } from './attempt-timeout.ts';

/**
 * undici transport. The caller may pass its own dispatcher (tests, benches); none is installed
 * globally. `timeoutMs` (default 60 s) bounds the whole attempt: undici's headers timeout covers the
 * wait for the answer, then one timer destroys a body still arriving when the time is up (an
 * AbortSignal per request costs more CPU than the rest of the client: bench/client.ts).
 */
export function undiciTransport(options: { dispatcher?: Dispatcher; timeoutMs?: number } = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return async (req) => {
    const startedAt = Date.now();
    const response = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      dispatcher: options.dispatcher,
    });
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        response.body.destroy();
      },
      Math.max(0, timeoutMs - (Date.now() - startedAt)),
    );
    let body: string;
    try {
      body = await response.body.text();
    } catch (error) {
      throw timedOut ? attemptTimeoutError(timeoutMs) : error;
    } finally {
      clearTimeout(timer);
    }
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, headers, body };
  };
}
