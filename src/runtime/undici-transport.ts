import { request } from 'undici';
import type { Dispatcher } from 'undici';
import type { Transport } from '../runtime.ts';
import { attemptDeadline, attemptTimeoutError } from './attempt-timeout.ts';

/**
 * undici transport. The caller may pass its own dispatcher (tests, benches); none is installed
 * globally. `timeoutMs` (default 60 s) bounds the whole attempt with one timer started before the
 * connection: undici's own headers and body timeouts leave out the connect phase and tick about once a
 * second. undici acts on an abort only once the request is on a socket, so the wait for the answer is
 * raced against the deadline: a connect that hangs ends at the timeout too (the queued request is then
 * dropped by undici when it would start).
 */
export function undiciTransport(options: { dispatcher?: Dispatcher; timeoutMs?: number } = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return async (req) => {
    const deadline = attemptDeadline(timeoutMs, req.signal);
    try {
      const response = await Promise.race([
        request(req.url, { method: req.method, headers: req.headers, body: req.body, signal: deadline.signal, dispatcher: options.dispatcher }),
        deadline.aborted,
      ]);
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
