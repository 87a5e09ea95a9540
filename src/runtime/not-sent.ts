import { REQUEST_NOT_SENT } from '../runtime.ts';

/**
 * The rejection of a request refused before any byte of it left (an invalid header value or URL), so
 * the client reports it failed and sends nothing again. The original error is kept as the cause.
 */
export function notSentError(cause: unknown): Error {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return Object.assign(new Error(`The request could not be sent: ${reason}`, { cause }), { code: REQUEST_NOT_SENT });
}
