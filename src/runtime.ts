/**
 * Everything with a side effect is injected: the layer ships inside the n8n package, whose scanner
 * forbids timers, process, globalThis and any network import. Adapters provide these.
 */
export interface HttpRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
  /**
   * A bound on this attempt tighter than the transport's own, when the caller has a deadline (a job
   * wait): the transport ends the attempt by then, as it does at its own timeout.
   */
  timeoutMs?: number;
}

export interface HttpResponse {
  status: number;
  /** Header names in lower case. */
  headers: Record<string, string | undefined>;
  /** Raw body text; parsed by the layer so a non-JSON answer becomes a typed error, not a crash. */
  body: string;
}

/**
 * The `code` a transport gives its rejection when it refused the request before any byte of it left
 * (an invalid header value or URL): nothing was sent, so the client reports `failed`, never `unknown`,
 * and does not retry. Node's own codes for such refusals (undici's UND_ERR_INVALID_ARG, node:http's
 * ERR_INVALID_CHAR …, which n8n's axios raises) are read the same way (outcome-certainty.ts).
 */
export const REQUEST_NOT_SENT = 'REQUEST_NOT_SENT';

/**
 * Sends one request. Rejects only when no complete answer arrived (reset, timeout, DNS, severed body),
 * or with code REQUEST_NOT_SENT when it refused the request before sending it.
 */
export type Transport = (request: HttpRequest) => Promise<HttpResponse>;

export interface Runtime {
  transport: Transport;
  /** Resolves after `ms`; rejects when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Milliseconds since the Unix epoch. */
  now(): number;
  /** Uniform in [0, 1). */
  random(): number;
}
