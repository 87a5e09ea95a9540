import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { inputError } from '../errors.ts';
import { waitForJob } from '../job-waiter.ts';
import type { WaitOptions } from '../job-waiter.ts';
import type { Job, WaitResult } from '../types.ts';
import { unwrap } from './unwrap.ts';

export class Jobs {
  private readonly core: ClientCore;
  constructor(core: ClientCore) {
    this.core = core;
  }

  /** `GET /jobs/{id}`: counters and per-row errors; unknown fields passed through. */
  async get(id: string, options?: { signal?: AbortSignal }): Promise<Job> {
    if (typeof id !== 'string' || !id.trim()) throw inputError('A job id is required.', 'id');
    const response = await this.core.sender.send<{ data?: Job }>({
      method: 'GET',
      path: `/jobs/${encodeURIComponent(id.trim())}`,
      signal: options?.signal,
      budget: budgetFor(this.core),
    });
    return unwrap<Job>(response.data);
  }

  /** Polls until `completed_at` is set, the timeout passes, or the signal aborts (distinct results). */
  wait(id: string, options: WaitOptions): Promise<WaitResult> {
    return waitForJob(() => this.get(id, { signal: options?.signal }), this.core.runtime, options);
  }
}
