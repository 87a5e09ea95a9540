import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { transportError } from '../errors.ts';

export class ContactAttributes {
  private readonly core: ClientCore;
  constructor(core: ClientCore) {
    this.core = core;
  }

  /** `GET /contact-attributes`: every attribute, a list without `meta` (spec §4.5). Row fields pass through. */
  async list(options?: { signal?: AbortSignal }): Promise<Record<string, unknown>[]> {
    const response = await this.core.sender.send<{ data?: unknown }>({ method: 'GET', path: '/contact-attributes', signal: options?.signal, budget: budgetFor(this.core) });
    if (!Array.isArray(response.data?.data)) throw transportError('The answer to GET /contact-attributes had no data list.', response.status, response.requestId);
    return response.data.data as Record<string, unknown>[];
  }
}
