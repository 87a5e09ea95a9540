import { ApiError, transportError } from '../errors.ts';

/** Anything a chunk's work threw, as the layer's one error type. */
export function asApiError(error: unknown): ApiError {
  return error instanceof ApiError ? error : transportError(String(error));
}

/**
 * The error of an input whose call never went out because an earlier call failed as a whole: the
 * cause's code, and never `outcomeUnknown` (nothing of this input was sent).
 */
export function notAttemptedError(cause: unknown): ApiError {
  const error = asApiError(cause);
  return new ApiError({
    ...error.toJSON(),
    outcomeUnknown: false,
    message: `Not attempted: an earlier call failed as a whole (${error.code}: ${error.message})`,
  });
}
