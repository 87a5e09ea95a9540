/** §4 idempotency: per account and key, the first committed answer is replayed; conflicts are 409s. */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Fail, Reply } from './replies.ts';
import { T, err } from './util.ts';

interface Entry {
  fingerprint: string;
  state: 'in_progress' | 'done';
  status: number;
  /**
   * The answer, deflated: a batch answer is ~40 bytes of ids per message and is kept for the whole
   * retention (a day by default), so a soak would otherwise hold every id it ever sent; deflated ~2.5× less.
   * Held as a one-byte (latin1) string, sized exactly, on the heap (a Buffer from zlib is a view of a larger chunk).
   */
  packed: string | null;
  expiresAt: number;
}

export interface StoredAnswer {
  status: number;
  body: string;
}

export class Idempotency {
  private entries = new Map<string, Entry>();
  /** Committed slots in commit order, swept from the front once expired, so old keys do not pile up. */
  private expiries: { slot: string; at: number }[] = [];
  private expiriesHead = 0;
  private readonly fail: Fail;
  private readonly retentionSeconds: () => number;

  constructor(fail: Fail, retentionSeconds: () => number) {
    this.fail = fail;
    this.retentionSeconds = retentionSeconds;
  }

  reset(): void {
    this.entries.clear();
    this.expiries = [];
    this.expiriesHead = 0;
  }

  /** Keys held at `now`: in progress, or committed and inside their retention. */
  size(now: number): number {
    this.sweep(now);
    return this.entries.size;
  }

  /** A stored answer, a conflict, or null (the caller may proceed; the key is now in progress). */
  begin(account: string, key: string, fingerprint: string, now: number): { replay: StoredAnswer } | { conflict: Reply } | null {
    this.sweep(now);
    const slot = slotOf(account, key);
    const e = this.entries.get(slot);
    if (e && e.state === 'done' && e.expiresAt <= now) this.entries.delete(slot);
    else if (e) {
      if (e.fingerprint !== fingerprint)
        return { conflict: this.fail(409, err(T.invalid, 'idempotency_key_reused', 'This Idempotency-Key was already used with a different request body (or route).', 'Idempotency-Key')) };
      if (e.state === 'in_progress')
        return { conflict: this.fail(409, err(T.invalid, 'idempotency_request_in_progress', 'The first request with this Idempotency-Key has not finished; retry with the same key to get its answer.', 'Idempotency-Key')) };
      return { replay: { status: e.status, body: inflateRawSync(Buffer.from(e.packed!, 'latin1')).toString('utf8') } };
    }
    this.entries.set(slot, { fingerprint, state: 'in_progress', status: 0, packed: null, expiresAt: Infinity });
    return null;
  }

  commit(account: string, key: string, status: number, body: string, now: number): void {
    const slot = slotOf(account, key);
    const e = this.entries.get(slot);
    if (!e) return;
    e.state = 'done';
    e.status = status;
    e.packed = deflateRawSync(body).toString('latin1');
    e.expiresAt = now + this.retentionSeconds() * 1000;
    this.expiries.push({ slot, at: e.expiresAt });
    this.sweep(now);
  }

  /**
   * Forgets committed answers past their retention, oldest commit first. A retention shortened by a
   * config patch can leave a later commit expiring before an earlier one: it goes when the front
   * reaches it, or at once when its key is used again (begin).
   */
  private sweep(now: number): void {
    while (this.expiriesHead < this.expiries.length && this.expiries[this.expiriesHead]!.at <= now) {
      const { slot, at } = this.expiries[this.expiriesHead++]!;
      const e = this.entries.get(slot);
      if (e && e.state === 'done' && e.expiresAt === at) this.entries.delete(slot);
    }
    if (this.expiriesHead > 1024 && this.expiriesHead * 2 > this.expiries.length) {
      this.expiries = this.expiries.slice(this.expiriesHead);
      this.expiriesHead = 0;
    }
  }

  release(account: string, key: string): void {
    const slot = slotOf(account, key);
    if (this.entries.get(slot)?.state === 'in_progress') this.entries.delete(slot);
  }
}

function slotOf(account: string, key: string): string {
  return `${account}\n${key}`;
}
