import { budgetFor } from '../core.ts';
import type { ClientCore } from '../core.ts';
import { unwrap } from './unwrap.ts';

/** The account (spec §4): `rate_limit` is shown; other fields pass through. */
export interface Account {
  rate_limit?: number;
  [field: string]: unknown;
}

export class AccountResource {
  private readonly core: ClientCore;
  constructor(core: ClientCore) {
    this.core = core;
  }

  async get(options?: { signal?: AbortSignal }): Promise<Account> {
    const response = await this.core.sender.send<{ data?: Account }>({ method: 'GET', path: '/account', signal: options?.signal, budget: budgetFor(this.core) });
    return unwrap<Account>(response.data);
  }
}
