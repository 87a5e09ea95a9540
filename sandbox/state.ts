/** Everything the sandbox holds: the live config, the resources, rate windows and idempotency answers. */
import { mergeConfig } from './config.ts';
import { EventLog } from './events.ts';
import { Idempotency } from './idempotency.ts';
import { RateLimiter } from './rate-limit.ts';
import type { Fail } from './replies.ts';
import { failWith } from './replies.ts';
import { Contacts } from './resources/contacts.ts';
import { Jobs } from './resources/jobs.ts';
import { Messages } from './resources/messages.ts';
import type { AccountConfig, KeyConfig, SandboxConfig, SandboxConfigInput } from './types.ts';
import { clone } from './util.ts';

export class State {
  readonly loaded: SandboxConfig;
  config!: SandboxConfig;
  accounts = new Map<string, AccountConfig>();
  keys = new Map<string, KeyConfig>();
  /** API requests received (everything but /__sandbox and the inbox) since start or the last reset. */
  requests = 0;
  /** Bumped by every API request and job progress: the inbox's cheap "anything new?" check. */
  version = 0;
  readonly now: () => number;
  readonly fail: Fail;
  readonly messages: Messages;
  readonly contacts: Contacts;
  readonly jobs: Jobs;
  readonly rates: RateLimiter;
  readonly idempotency: Idempotency;
  readonly events = new EventLog();

  constructor(config: SandboxConfig, now: () => number = Date.now) {
    this.loaded = clone(config);
    this.now = now;
    this.fail = failWith(() => this.config.docs_url);
    this.messages = new Messages(this.fail, () => this.config.retain_messages);
    this.contacts = new Contacts(this.fail);
    this.jobs = new Jobs({ fail: this.fail, contacts: this.contacts, account: (id) => this.accounts.get(id), rowsPerSecond: () => this.config.job_rows_per_second });
    this.rates = new RateLimiter(() => this.config.window_seconds);
    this.idempotency = new Idempotency(this.fail, () => this.config.idempotency_retention_seconds);
    this.reset();
  }

  reset(): void {
    this.setConfig(clone(this.loaded));
    this.messages.reset();
    this.contacts.reset();
    this.jobs.reset();
    this.rates.reset();
    this.idempotency.reset();
    this.events.reset();
    this.requests = 0;
    this.version++;
  }

  /** Brings jobs up to now (they progress lazily); progress counts as a change for the inbox. */
  observe(now: number = this.now()): void {
    if (this.jobs.observe(now)) this.version++;
  }

  /** Merges a partial config into the live one (jobs are first brought up to date at the old speed). */
  configure(patch: SandboxConfigInput): SandboxConfig {
    const merged = mergeConfig(this.config, patch);
    this.observe();
    this.setConfig(merged);
    this.messages.store.evict();
    return clone(merged);
  }

  private setConfig(c: SandboxConfig): void {
    this.config = c;
    this.accounts = new Map(c.accounts.map((a) => [a.id, a]));
    this.keys = new Map(c.keys.map((k) => [k.key, k]));
  }
}
