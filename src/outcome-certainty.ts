import type { ApiError } from './errors.ts';
import { REQUEST_NOT_SENT } from './runtime.ts';

/**
 * The rule for `unknown` versus `failed`, decided per attempt by the request sender, which alone
 * knows whether an attempt reached the wire and how it ended. A write is `unknown` when any attempt
 * may have been committed and no later attempt brought a definitive success: a later refusal does
 * not undo an earlier attempt that the service may have committed.
 *
 * May have committed: no answer after the request went out (reset, timeout, severed body), any 5xx
 * (500 after commit is possible; a proxy's 502/503/504 too), 409 `idempotency_request_in_progress`
 * (the first attempt is still running), and a 2xx whose body was cut off or lacked an element's row.
 * Did not: every 4xx envelope (400/401/402/403/404/405/409 key reused/413/422) and 429, which
 * spec §7 says was not processed; and a connection that was never made.
 */
export function attemptMayHaveCommitted(error: ApiError): boolean {
  if (error.status === 0) return error.code === 'transport_error';
  if (error.status >= 500) return true;
  if (error.code === 'idempotency_request_in_progress') return true;
  return error.status >= 200 && error.status < 300;
}

/** Socket errors raised before a request could be written: nothing reached the service. */
const NOT_CONNECTED = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

/**
 * Refusals raised before any byte of the request left: the transport's own mark, undici's invalid
 * argument, and node:http's invalid header, token or URL (n8n's axios). Sending again would be refused
 * the same way, so the call fails at once.
 */
const NOT_SENT = new Set([
  REQUEST_NOT_SENT,
  'UND_ERR_INVALID_ARG',
  'ERR_INVALID_CHAR',
  'ERR_HTTP_INVALID_HEADER_VALUE',
  'ERR_INVALID_HTTP_TOKEN',
  'ERR_UNESCAPED_CHARACTERS',
  'ERR_INVALID_URL',
  'ERR_INVALID_PROTOCOL',
]);

function codeOf(value: unknown): string | undefined {
  const code = (value as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}

function codesOf(error: unknown): (string | undefined)[] {
  return [codeOf(error), codeOf((error as { cause?: unknown } | null | undefined)?.cause)];
}

/** Whether a transport's rejection shows that no connection was made (fetch wraps the cause). */
export function neverConnected(error: unknown): boolean {
  const [code, causeCode] = codesOf(error);
  const first = code ?? causeCode;
  return first !== undefined && NOT_CONNECTED.has(first);
}

/** Whether a transport refused the request before any byte of it left: nothing was sent, ever. */
export function refusedBeforeSending(error: unknown): boolean {
  return codesOf(error).some((code) => code !== undefined && NOT_SENT.has(code));
}

/**
 * A TypeError, ReferenceError or SyntaxError without a cause is a bug in the transport or its set-up
 * (e.g. a runtime without a transport), not a network failure: it is surfaced as it is, never retried.
 * (Node's fetch reports network failures as a TypeError *with* a cause.)
 */
export function isProgrammingError(error: unknown): boolean {
  return (error instanceof TypeError || error instanceof ReferenceError || error instanceof SyntaxError) && (error as { cause?: unknown }).cause === undefined;
}
