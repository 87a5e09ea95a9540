/**
 * One deadline for a whole attempt — connecting, headers and the full body — so a body trickling a
 * byte at a time cannot outlive the timeout. The caller's own signal still aborts it. `done()` clears
 * the timer (one plain timer per request: cheaper than AbortSignal.timeout plus AbortSignal.any).
 */
export function attemptDeadline(timeoutMs: number, callerSignal?: AbortSignal): { signal: AbortSignal; done(): void; timedOut(): boolean } {
  const controller = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(callerSignal?.reason);
  if (callerSignal?.aborted) onAbort();
  else callerSignal?.addEventListener('abort', onAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => expired,
    done: () => {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', onAbort);
    },
  };
}

/** The error a transport rejects with when its deadline passed (a network failure, not a bug). */
export function attemptTimeoutError(timeoutMs: number): Error {
  return Object.assign(new Error(`The request took longer than the ${timeoutMs} ms timeout (whole attempt: connect, headers and body).`), { code: 'ATTEMPT_TIMEOUT' });
}
