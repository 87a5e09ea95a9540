/** §4 idempotency: per account and key, the first committed answer is replayed; conflicts are 409s. */
import type { Fail, Reply } from './replies.ts';
import { T, err } from './util.ts';

export interface StoredAnswer {
  fingerprint: string;
  state: 'in_progress' | 'done';
  status: number;
  body: string;
  expiresAt: number;
}

export class Idempotency {
  private entries = new Map<string, StoredAnswer>();
  private readonly fail: Fail;
  private readonly retentionSeconds: () => number;

  constructor(fail: Fail, retentionSeconds: () => number) {
    this.fail = fail;
    this.retentionSeconds = retentionSeconds;
  }

  reset(): void {
    this.entries.clear();
  }

  /** A stored answer, a conflict, or null (the caller may proceed; the key is now in progress). */
  begin(account: string, key: string, fingerprint: string, now: number): { replay: StoredAnswer } | { conflict: Reply } | null {
    const slot = slotOf(account, key);
    const e = this.entries.get(slot);
    if (e && e.state === 'done' && e.expiresAt <= now) this.entries.delete(slot);
    else if (e) {
      if (e.fingerprint !== fingerprint)
        return { conflict: this.fail(409, err(T.invalid, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body (or route).', 'Idempotency-Key')) };
      if (e.state === 'in_progress')
        return { conflict: this.fail(409, err(T.invalid, 'idempotency_request_in_progress', 'The first request with this Idempotency-Key has not finished; retry with the same key to get its answer.', 'Idempotency-Key')) };
      return { replay: e };
    }
    this.entries.set(slot, { fingerprint, state: 'in_progress', status: 0, body: '', expiresAt: Infinity });
    return null;
  }

  commit(account: string, key: string, status: number, body: string, now: number): void {
    const e = this.entries.get(slotOf(account, key));
    if (!e) return;
    e.state = 'done';
    e.status = status;
    e.body = body;
    e.expiresAt = now + this.retentionSeconds() * 1000;
  }

  release(account: string, key: string): void {
    const slot = slotOf(account, key);
    if (this.entries.get(slot)?.state === 'in_progress') this.entries.delete(slot);
  }
}

function slotOf(account: string, key: string): string {
  return `${account}\n${key}`;
}
