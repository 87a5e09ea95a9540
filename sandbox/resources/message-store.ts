/**
 * The messages the sandbox created: the newest `retain` rows in full (oldest evicted first), and for
 * every message ever created the counts the ledger's totals need: how many, how many per idempotency
 * key, and how many were duplicates (by fingerprint, see fingerprints.ts).
 */
import { Fingerprints } from '../fingerprints.ts';
import type { MessageRow } from '../types.ts';

export class MessageStore {
  /** Retained rows, oldest first, from `rows[head]`; `rows[head + i]` has sequence number `firstSeq + i`. */
  private rows: (MessageRow | undefined)[] = [];
  private head = 0;
  private firstSeq = 0;
  private byId = new Map<string, MessageRow>();
  private readonly fingerprints = new Fingerprints();
  private readonly retain: () => number;
  /** Messages ever created since start or the last reset. */
  total = 0;
  duplicates = 0;
  readonly byIdempotencyKey = new Map<string, number>();

  constructor(retain: () => number) {
    this.retain = retain;
  }

  reset(): void {
    this.rows = [];
    this.head = 0;
    this.firstSeq = 0;
    this.byId.clear();
    this.fingerprints.reset();
    this.total = 0;
    this.duplicates = 0;
    this.byIdempotencyKey.clear();
  }

  add(row: MessageRow): void {
    this.rows.push(row);
    this.byId.set(row.id, row);
    this.total++;
    if (this.fingerprints.add([row.account, row.channel, row.to, row.subject, row.body])) this.duplicates++;
    if (row.idempotency_key !== null) {
      const k = `${row.account}/${row.idempotency_key}`;
      this.byIdempotencyKey.set(k, (this.byIdempotencyKey.get(k) ?? 0) + 1);
    }
    this.evict();
  }

  get(id: string): MessageRow | undefined {
    return this.byId.get(id);
  }

  /** Rows still held in full. */
  get retained(): number {
    return this.rows.length - this.head;
  }

  /** Retained rows with a sequence number >= `fromSeq` (earlier ones are skipped), at most `limit`, and the next one's number. */
  page(fromSeq: number, limit: number): { rows: MessageRow[]; nextSeq: number | null } {
    const start = this.head + Math.max(0, fromSeq - this.firstSeq);
    const end = Math.min(this.rows.length, start + limit);
    const rows = start < end ? (this.rows.slice(start, end) as MessageRow[]) : [];
    return { rows, nextSeq: end < this.rows.length ? this.firstSeq + (end - this.head) : null };
  }

  /** The newest `n` retained rows, oldest first. */
  recent(n: number): MessageRow[] {
    return this.rows.slice(Math.max(this.head, this.rows.length - n)) as MessageRow[];
  }

  /** Drops the oldest rows past the bound; compacts the array once half of it is dead. */
  evict(): void {
    const keep = this.retain();
    while (this.retained > keep) {
      const gone = this.rows[this.head]!;
      this.byId.delete(gone.id);
      // The slot is cleared at once, so an evicted body is garbage now, not at the next compaction.
      this.rows[this.head] = undefined;
      this.head++;
      this.firstSeq++;
    }
    if (this.head > 1024 && this.head * 2 > this.rows.length) {
      this.rows = this.rows.slice(this.head);
      this.head = 0;
    }
  }
}
