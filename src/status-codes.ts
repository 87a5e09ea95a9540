/** HTTP status of each code of spec §7, so element-level errors (which have none) carry one too. */
const STATUS_BY_CODE = new Map<string, number>(Object.entries({
  missing_api_key: 401,
  invalid_api_key: 401,
  api_key_revoked: 401,
  api_key_expired: 401,
  subscription_expired: 403,
  account_suspended: 403,
  insufficient_scope: 403,
  channel_not_in_plan: 403,
  insufficient_credits: 402,
  validation_failed: 422,
  no_sender_available: 422,
  request_refused: 400,
  resource_not_found: 404,
  method_not_allowed: 405,
  idempotency_key_reused: 409,
  idempotency_request_in_progress: 409,
  rate_limit_exceeded: 429,
  internal_error: 500,
}));

/** A Map, not an object: a code is the service's (or anyone's) text, `constructor` included. */
export function statusForCode(code: string): number {
  return STATUS_BY_CODE.get(code) ?? 0;
}
