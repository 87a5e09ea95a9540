import { request } from 'undici';
import type { Dispatcher } from 'undici';
import type { Transport } from '../runtime.ts';

/**
 * undici transport. The caller may pass its own dispatcher (tests, benches); none is installed
 * globally. A whole-request timeout covers headers and body, so a hung server is a transport error.
 */
export function undiciTransport(options: { dispatcher?: Dispatcher; timeoutMs?: number } = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return async (req) => {
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = req.signal ? AbortSignal.any([req.signal, timeout]) : timeout;
    const response = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal,
      dispatcher: options.dispatcher,
    });
    const body = await response.body.text();
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, headers, body };
  };
}
