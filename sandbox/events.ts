/** What happened on the wire, for the inbox's ledger view: sends, imports, replays, injected faults, 429s, refusals. */

export type EventKind = 'send' | 'import' | 'replay' | 'fault' | 'rate_limited' | 'refused';

export interface WireEvent {
  at: string;
  kind: EventKind;
  route: string;
  status: number;
  request_id: string;
  /** The full key string; masked before it leaves the process (see inbox/snapshot.ts). */
  key: string | null;
  detail: string;
}

/** The most recent events (a bounded ring; the ledger keeps the newest `retain_messages` messages and every count). */
export class EventLog {
  private items: WireEvent[] = [];
  /** Events ever recorded since the last reset (the ring keeps the last `capacity`). */
  total = 0;
  private readonly capacity: number;

  constructor(capacity = 500) {
    this.capacity = capacity;
  }

  reset(): void {
    this.items = [];
    this.total = 0;
  }

  add(e: WireEvent): void {
    this.items.push(e);
    this.total++;
    if (this.items.length > this.capacity * 2) this.items = this.items.slice(-this.capacity);
  }

  recent(n: number): WireEvent[] {
    return this.items.slice(-n);
  }
}
