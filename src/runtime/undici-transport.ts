import { request } from 'undici';
import type { Dispatcher } from 'undici';
import type { Transport } from '../runtime.ts';

/**
 * undici transport. The caller may pass its own dispatcher (tests, benches); none is installed
 * globally. A hung server ends in a transport error through undici's own headers and body timeouts;
 * an AbortSignal timer per request would cost more CPU than the rest of the client (measured in bench/).
 */
export function undiciTransport(options: { dispatcher?: Dispatcher; timeoutMs?: number } = {}): Transport {
  const timeoutMs = options.timeoutMs ?? 60_000;
  return async (req) => {
    const response = await request(req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      signal: req.signal,
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
  };
}
