import { CLIENT_WORDS } from './surface-words.ts';
import type { SurfaceWords } from './surface-words.ts';

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
  /**
   * The HTTP status of the answer that refused the call; 0 when no HTTP status applies: no answer came
   * back, the client stopped on a limit of its own, or the service refused one element inside a
   * successful answer (a batch row, an import job's row). Read it through `httpStatusOf`.
   */
  status: number;
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

  /** What to tell a person to do about it, from the remedies of spec §7, in the client's own option names. */
  get remedy(): string {
    return this.remedyIn(CLIENT_WORDS);
  }

  /** The remedy naming the settings as the surface names them (surface-words.ts). */
  remedyIn(words: SurfaceWords): string {
    return this.outcomeUnknown ? UNKNOWN_OUTCOME_REMEDY : remedyFor(this.code, this.param, words);
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
  missing_api_key: 'No API key reached the service: set {apiKey}.',
  invalid_api_key: 'The key matches no issued key: copy it again from the dashboard into {apiKey}.',
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
  transport_error: 'No valid answer came back: check {baseUrl} and the network; writes are safe to retry with the same idempotency key.',
  invalid_input: 'Fix the input named in `param`; nothing was sent.',
  invalid_input_unnamed: 'Fix the input the message names; nothing was sent.',
  invalid_base_url: 'Set {baseUrl} to an https:// address ending in /v1 (http:// only for a local sandbox on loopback).',
  rate_limit_wait_exceeded: 'The rate window resets later than the wait you allowed: raise {rateLimitWait}, or send less.',
  retry_budget_exhausted: 'Too many failures in a row: the service looks unhealthy; try again later.',
  page_cap_reached: 'The listing stopped at its page cap while the service still had more: ask for fewer, or resume from the cursor the message gives.',
  row_error: 'The service refused this row without a code: see the message, fix the row and import it again.',
  wait_timeout: 'Nothing is lost: the job keeps running on the service.',
  aborted: 'The operation was cancelled.',
};

/**
 * The remedy of a code, naming the surface's own settings (`{apiKey}` and the like in the table). One
 * that points at the field names it (`email`) when the error names one, and has a variant for errors
 * that name none.
 */
export function remedyFor(code: string, param?: string, words: SurfaceWords = CLIENT_WORDS): string {
  const unnamed = `${code}_unnamed`;
  const remedy = !param && Object.hasOwn(REMEDIES, unnamed) ? REMEDIES[unnamed] : Object.hasOwn(REMEDIES, code) ? REMEDIES[code] : 'See the error reference for this code.';
  const settings: Record<string, string> = { apiKey: words.apiKeySetting, baseUrl: words.baseUrlSetting, rateLimitWait: words.rateLimitWaitSetting };
  const worded = remedy.replace(/\{(\w+)\}/g, (placeholder, name: string) => settings[name] ?? placeholder);
  return param ? worded.replace(/named in `param`/g, `\`${param}\``) : worded;
}

/** The remedy of a write whose outcome is unknown, whatever the code that ended it. */
export const UNKNOWN_OUTCOME_REMEDY =
  'It may or may not have gone through: send again with the same idempotency key; the service replays or completes it, never twice. A new key could send it twice.';
