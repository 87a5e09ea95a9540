/** Codes the client itself produces, beside the service's own codes of spec §7. */
export type ClientErrorCode =
  | 'transport_error' // no answer, a severed answer, or a body that is not the documented envelope
  | 'invalid_input' // the caller's input is wrong; nothing was sent
  | 'invalid_base_url'
  | 'rate_limit_wait_exceeded' // waiting for the rate window would pass the caller's bound
  | 'retry_budget_exhausted'
  | 'page_cap_reached' // a listing walked more pages than the caller's cap
  | 'wait_timeout' // a job did not finish within the wait (it keeps running on the service)
  | 'row_error' // a job's row error that carries no code of its own (its shape is not shown)
  | 'aborted';

/** The error object of spec §2, as sent by the service (inside `error`, or inside a batch row). */
export interface ServiceErrorBody {
  type: string;
  code: string;
  message: string;
  param?: string;
  doc_url?: string;
  [unknown: string]: unknown;
}

export interface ApiErrorFields {
  status: number; // HTTP status; 0 when no answer came back
  type: string;
  code: string;
  message: string;
  param?: string;
  docUrl?: string;
  requestId?: string;
  retryAfter?: number; // seconds, from Retry-After
  /**
   * The write may or may not have been committed: an attempt may have reached the service and no
   * definitive answer followed (see outcome-certainty.ts). Sending again with the same Idempotency-Key
   * settles it. Always false for reads and for definitive refusals.
   */
  outcomeUnknown?: boolean;
}

/**
 * The one error type of the layer. Branch on `code` (spec §7), never on `message`.
 * It never holds the API key: messages are built from the service's text and our own.
 */
export class ApiError extends Error implements ApiErrorFields {
  readonly status: number;
  readonly type: string;
  readonly code: string;
  readonly param?: string;
  readonly docUrl?: string;
  readonly requestId?: string;
  readonly retryAfter?: number;
  readonly outcomeUnknown: boolean;

  constructor(fields: ApiErrorFields) {
    super(fields.message);
    this.name = 'ApiError';
    this.status = fields.status;
    this.type = fields.type;
    this.code = fields.code;
    this.param = fields.param;
    this.docUrl = fields.docUrl;
    this.requestId = fields.requestId;
    this.retryAfter = fields.retryAfter;
    this.outcomeUnknown = fields.outcomeUnknown === true;
  }

  /** What to tell a person to do about it, from the remedies of spec §7. */
  get remedy(): string {
    return this.outcomeUnknown ? UNKNOWN_OUTCOME_REMEDY : remedyFor(this.code, this.param);
  }

  toJSON(): ApiErrorFields & { remedy: string } {
    return {
      status: this.status,
      type: this.type,
      code: this.code,
      message: this.message,
      param: this.param,
      docUrl: this.docUrl,
      requestId: this.requestId,
      retryAfter: this.retryAfter,
      outcomeUnknown: this.outcomeUnknown,
      remedy: this.remedy,
    };
  }
}

export function inputError(message: string, param?: string): ApiError {
  return new ApiError({ status: 0, type: 'invalid_input', code: 'invalid_input', message, param });
}

export function transportError(message: string, status = 0, requestId?: string): ApiError {
  return new ApiError({ status, type: 'transport_error', code: 'transport_error', message, requestId });
}

const REMEDIES: Record<string, string> = {
  missing_api_key: 'Send the API key as "Authorization: Bearer <key>"; check the credential is set.',
  invalid_api_key: 'The key matches no issued key: copy it again from the dashboard.',
  api_key_revoked: 'The key was revoked for good: issue a new key.',
  api_key_expired: 'The key has expired: issue a new key.',
  subscription_expired: 'The account has no running plan: renew it; the same key works afterwards.',
  account_suspended: 'The account is suspended, trashed or being deleted: contact support; a new key does not help.',
  insufficient_scope: 'The key lacks the scope this call needs: issue a new key with that scope (scopes cannot be added).',
  channel_not_in_plan: 'The plan does not include this channel: upgrade the plan or use another channel.',
  insufficient_credits: 'Not enough credit: top up, then retry the identical call.',
  validation_failed: 'Fix the field named in `param`.',
  validation_failed_unnamed: 'Fix the input the message names.',
  no_sender_available: 'No sender can send on this channel now (connect or bring one online); nothing was sent or charged.',
  request_refused: 'The service refused the request for the reason given.',
  resource_not_found: 'No object with that id in this account: check the id and the key’s account.',
  method_not_allowed: 'The path does not take this method.',
  idempotency_key_reused: 'This Idempotency-Key was already used with a different body: use a new key for new content.',
  idempotency_request_in_progress: 'The first request with this key is still running: retry later with the same key.',
  rate_limit_exceeded: 'Too many requests this minute for this key: wait for the rate window to reset.',
  internal_error: 'Service fault: retry once with the same Idempotency-Key.',
  transport_error: 'No valid answer came back: check the base URL and the network; writes are safe to retry with the same Idempotency-Key.',
  invalid_input: 'Fix the input named in `param`; nothing was sent.',
  invalid_input_unnamed: 'Fix the input the message names; nothing was sent.',
  invalid_base_url: 'Use an https:// base URL ending in /v1 (http:// only for a local sandbox on loopback).',
  rate_limit_wait_exceeded: 'The rate window resets later than the wait you allowed (Max Rate-Limit Wait in n8n, max-rate-limit-wait in the action): raise it or send less.',
  retry_budget_exhausted: 'Too many failures in a row: the service looks unhealthy; try again later.',
  page_cap_reached: 'The listing stopped at its page cap while the service still had more: ask for fewer, or resume from the cursor the message gives.',
  row_error: 'The service refused this row without a code: see the message, fix the row and import it again.',
  wait_timeout: 'Nothing is lost: the job keeps running on the service.',
  aborted: 'The operation was cancelled.',
};

/**
 * The remedy of a code. One that points at the field names it (`email`) when the error names one, and
 * has a variant for errors that name none.
 */
export function remedyFor(code: string, param?: string): string {
  const unnamed = `${code}_unnamed`;
  if (!param && Object.hasOwn(REMEDIES, unnamed)) return REMEDIES[unnamed];
  const remedy = Object.hasOwn(REMEDIES, code) ? REMEDIES[code] : 'See the error reference for this code.';
  return param ? remedy.replace(/named in `param`/g, `\`${param}\``) : remedy;
}

/** The remedy of a write whose outcome is unknown, whatever the code that ended it. */
export const UNKNOWN_OUTCOME_REMEDY =
  'It may or may not have gone through: send again with the same idempotency key; the service replays or completes it, never twice. A new key could send it twice.';

/**
 * One line for a person: what failed (code), the service's words, what to do, and where (an item or
 * row, given by the adapter). The action's annotations and summary, and the results' outcome lines;
 * the n8n node splits the same pieces into a title of at most 80 characters and a description.
 */
export function describeError(error: ApiError, where?: string): string {
  const parts = [`${error.code}: ${error.message.replace(/[.\s]+$/, '')}.`, error.remedy];
  if (error.param && !error.message.includes(error.param)) parts.push(`(field: ${error.param})`);
  if (error.requestId) parts.push(`[request ${error.requestId}]`);
  if (where) parts.push(`— ${where}`);
  return parts.join(' ');
}
