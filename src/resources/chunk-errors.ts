import { ApiError, transportError } from '../errors.ts';

/**
 * Anything a chunk's work threw, as the layer's one error type: inside the client, what is not already an
 * ApiError can only have come from the transport. (The n8n node's own `asApiError` reads a non-ApiError
 * as a fault of the node's parameters instead: it sees errors the client never made.)
 */
export function asChunkError(error: unknown): ApiError {
  return error instanceof ApiError ? error : transportError(String(error));
}

/**
 * The error of an input whose call never went out because an earlier call failed as a whole: the
 * cause's code, and never `outcomeUnknown` (nothing of this input was sent).
 */
export function notAttemptedError(cause: unknown): ApiError {
  const error = asChunkError(cause);
  return new ApiError({
    ...error.toJSON(),
    outcomeUnknown: false,
    message: `Not attempted: an earlier call failed as a whole (${error.code}: ${error.message})`,
  });
}
