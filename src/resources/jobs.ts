import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { inputError } from '../errors.ts';
import { waitForJob } from '../job-waiter.ts';
import type { JobPoll, WaitOptions } from '../job-waiter.ts';
import type { Job, WaitResult } from '../types.ts';
import { unwrap } from './unwrap.ts';

export class Jobs {
  private readonly core: ClientCore;
  constructor(core: ClientCore) {
    this.core = core;
  }

  /** `GET /jobs/{id}`: counters and per-row errors; unknown fields passed through. */
  async get(id: string, options?: { signal?: AbortSignal }): Promise<Job> {
    return (await this.poll(id, options?.signal)).job;
  }

  /** `GET /jobs/{id}` with the Retry-After the service may send, which the waiter honours. */
  private async poll(id: string, signal?: AbortSignal, deadline?: number): Promise<JobPoll> {
    if (typeof id !== 'string' || !id.trim()) throw inputError('A job id is required.', 'id');
    const response = await this.core.sender.send<{ data?: Job }>({
      method: 'GET',
      path: `/jobs/${encodeURIComponent(id.trim())}`,
      signal,
      budget: budgetFor(this.core),
      deadline,
    });
    return { job: unwrap<Job>(response.data), retryAfterSeconds: response.rateLimit.retryAfter };
  }

  /** Polls until `completed_at` is set, the timeout passes, or the signal aborts (distinct results). */
  wait(id: string, options: WaitOptions): Promise<WaitResult> {
    return waitForJob((deadline) => this.poll(id, options?.signal, deadline), this.core.runtime, options);
  }
}
