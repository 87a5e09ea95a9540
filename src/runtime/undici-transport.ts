import { request } from 'undici';
import type { Dispatcher } from 'undici';
import type { Transport } from '../runtime.ts';
import { attemptDeadline, attemptTimeoutError } from './attempt-timeout.ts';

/**
 * undici transport. The caller may pass its own dispatcher (tests, benches); none is installed
 * globally. `timeoutMs` (default 60 s) bounds the whole attempt: connect, headers and the full body.
 */
export function undiciTransport(options: { dispatcher?: Dispatcher; timeoutMs?: number } = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return async (req) => {
    const deadline = attemptDeadline(timeoutMs, req.signal);
    try {
      const response = await request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: deadline.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        dispatcher: options.dispatcher,
      });
      const body = await response.body.text();
      const headers: Record<string, string | undefined> = {};
      for (const [name, value] of Object.entries(response.headers)) {
        headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      return { status: response.statusCode, headers, body };
    } catch (error) {
      throw deadline.timedOut() ? attemptTimeoutError(timeoutMs) : error;
    } finally {
      deadline.done();
    }
  };
}
