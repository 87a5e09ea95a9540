import { request } from 'undici';
import type { Dispatcher } from 'undici';
import type { Transport } from '../runtime.ts';
import { AttemptDeadlines } from './attempt-deadlines.ts';
import type { TimedAttempt } from './attempt-deadlines.ts';
import { attemptTimeoutError } from './attempt-timeout.ts';
import { notSentError } from './not-sent.ts';

/** undici's refusal of a request's own arguments (a header value, the URL): raised before dispatching. */
function refusedArguments(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'UND_ERR_INVALID_ARG' || (error as { code?: unknown } | null)?.code === 'ERR_INVALID_URL';
}

/**
 * undici's own headers and body timeouts are set this much past the attempt's: its timers tick about
 * every half second and can fire up to a tick EARLY (a 1,996 ms headers timeout fired at 1,571 ms), which
 * cut polls short of a wait's deadline. They stay only to free a socket the attempt's timer let go.
 */
const UNDICI_TIMER_SLACK_MS = 1000;

/**
 * undici transport. The caller may pass its own dispatcher (tests, benches); none is installed
 * globally. `timeoutMs` (default 60 s) bounds the whole attempt, connect included, with a deadline on the
 * transport's one timer (attempt-deadlines.ts):
 * undici's headers and body timeouts start only once connected and tick about every half second, and
 * undici acts on an abort only when the request is on a socket. Before the answer the wait is raced
 * against the deadline; after it, the deadline destroys a body still arriving. (An AbortController per request
 * instead measured about 7 % more CPU per batch.)
 */
export function undiciTransport(options: { dispatcher?: Dispatcher; timeoutMs?: number } = {}): Transport {
  const ownTimeoutMs = options.timeoutMs ?? 60_000;
  const deadlines = new AttemptDeadlines();
  return async (req) => {
    const timeoutMs = Math.min(ownTimeoutMs, req.timeoutMs ?? Infinity);
    let response: Dispatcher.ResponseData | undefined;
    let timedOut = false;
    let expire: (error: Error) => void = () => undefined;
    const expired = new Promise<never>((_resolve, reject) => (expire = reject));
    const attempt: TimedAttempt = {
      deadline: performance.now() + timeoutMs,
      expire: () => {
        timedOut = true;
        if (response) response.body.destroy(); // a body still arriving: its read ends below
        else expire(attemptTimeoutError(timeoutMs)); // still connecting or waiting for headers
      },
    };
    deadlines.add(attempt);
    let pending: Promise<Dispatcher.ResponseData>;
    try {
      pending = request(req.url, {
        method: req.method,
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        headersTimeout: timeoutMs + UNDICI_TIMER_SLACK_MS,
        bodyTimeout: timeoutMs + UNDICI_TIMER_SLACK_MS,
        dispatcher: options.dispatcher,
      });
    } catch (error) {
      deadlines.delete(attempt); // refused on the spot (e.g. a URL undici cannot parse)
      throw refusedArguments(error) ? notSentError(error) : error;
    }
    try {
      response = await Promise.race([pending, expired]);
      const body = await response.body.text();
      // undici's request API names headers in lower case; a repeated one comes as a list, joined here in
      // place rather than copying every header into a new object (a raw request copies nothing).
      const headers = response.headers;
      for (const name in headers) {
        const value = headers[name];
        if (Array.isArray(value)) headers[name] = value.join(', ');
      }
      return { status: response.statusCode, headers: headers as Record<string, string | undefined>, body };
    } catch (error) {
      // An answer that comes after the deadline is let go; a late failure is ignored.
      if (!response) pending.then((late) => late.body.destroy(), () => undefined);
      if (timedOut) throw attemptTimeoutError(timeoutMs);
      throw !response && refusedArguments(error) ? notSentError(error) : error;
    } finally {
      deadlines.delete(attempt);
    }
  };
}
