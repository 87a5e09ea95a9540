import type { Transport } from '../runtime.ts';
import { attemptDeadline, attemptTimeoutError } from './attempt-timeout.ts';
import { notSentError } from './not-sent.ts';

/**
 * Transport over Node's built-in fetch (Node 24 ships undici inside the binary), for users of the client
 * who want no HTTP package at all. (The action uses undici-transport.ts with undici's EnvHttpProxyAgent,
 * for the runner's proxy variables: action/src/index.ts.) Same contract as undici-transport.ts: one request, `timeoutMs` (default
 * 60 s) bounding the whole attempt including the body, headers lower-cased, the raw body; rejects only
 * when no complete answer came, with REQUEST_NOT_SENT when the request could not even be built.
 */
export function fetchTransport(options: { timeoutMs?: number } = {}): Transport {
  const ownTimeoutMs = options.timeoutMs ?? 60_000;
  return async (req) => {
    const timeoutMs = Math.min(ownTimeoutMs, req.timeoutMs ?? Infinity);
    const deadline = attemptDeadline(timeoutMs, req.signal);
    let request: Request;
    try {
      // Built apart from sending: a header value or URL fetch refuses (a TypeError) means nothing was sent.
      request = new Request(req.url, { method: req.method, headers: req.headers, body: req.body, signal: deadline.signal, redirect: 'manual' });
    } catch (error) {
      deadline.done();
      throw notSentError(error);
    }
    try {
      const response = await fetch(request);
      const body = await response.text();
      const headers: Record<string, string | undefined> = {};
      response.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      return { status: response.status, headers, body };
    } catch (error) {
      throw deadline.timedOut() ? attemptTimeoutError(timeoutMs) : error;
    } finally {
      deadline.done();
    }
  };
}
