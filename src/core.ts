import { WaitBudget } from './rate-limiter.ts';
import type { RequestSender } from './request-sender.ts';
import type { Runtime } from './runtime.ts';

/** What every resource needs: the sender, the runtime and the client's settings. */
export interface ClientCore {
  sender: RequestSender;
  runtime: Runtime;
  /** Chunks in flight at once for a chunked operation. */
  concurrency: number;
  /** Bound on the time one operation may spend waiting for rate windows. */
  maxWaitMs: number;
  /** Bound on one call's JSON body; chunks are cut to stay within it. */
  maxBodyBytes: number;
  /** Bound on the pages one list walk may fetch. */
  maxPages: number;
  newIdempotencyKey(): string;
}

export function budgetFor(core: ClientCore): WaitBudget {
  return new WaitBudget(core.maxWaitMs);
}
