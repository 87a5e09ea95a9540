/**
 * The ledger of side effects, read in pages (never one document of every row), and its summary: what
 * tests read to prove "exactly once". Totals count every message ever created, evicted ones too.
 */
import type { State } from './state.ts';
import type { DuplicateGroup, LedgerPage, LedgerQuery, LedgerRows, LedgerSummary, LedgerTotals } from './types.ts';

const LEDGER_PAGE_DEFAULT = 100;
const LEDGER_PAGE_MAX = 1000;
/** A Map, so `rows=constructor` is simply unknown. */
const CURSOR_PREFIX = new Map<string, string>([
  ['messages', 'msq_'],
  ['jobs', 'jsq_'],
  ['contacts', 'csq_'],
]);

export class LedgerQueryError extends Error {
  readonly param: string;
  constructor(param: string, message: string) {
    super(message);
    this.param = param;
  }
}

export function ledgerPage<R extends LedgerRows = 'messages'>(state: State, query: LedgerQuery<R> = {}): LedgerPage<R> {
  state.observe();
  const rows = (query.rows ?? 'messages') as R;
  const prefix = CURSOR_PREFIX.get(rows);
  if (prefix === undefined) throw new LedgerQueryError('rows', `rows must be one of ${[...CURSOR_PREFIX.keys()].join(', ')}.`);
  const limit = query.limit ?? LEDGER_PAGE_DEFAULT;
  if (!Number.isInteger(limit) || limit < 1 || limit > LEDGER_PAGE_MAX) throw new LedgerQueryError('limit', `limit must be a whole number from 1 to ${LEDGER_PAGE_MAX}.`);
  const from = fromCursor(prefix, query.after ?? null);
  const cursor = (n: number | null): string | null => (n === null ? null : `${prefix}${n}`);
  let data: unknown[];
  let next: number | null;
  if (rows === 'messages') {
    const page = state.messages.store.page(from, limit);
    data = page.rows.map((m) => ({ ...m }));
    next = page.nextSeq;
  } else {
    const all = rows === 'jobs' ? state.jobs.rows : state.contacts.rows;
    const end = Math.min(all.length, from + limit);
    data = rows === 'jobs' ? state.jobs.ledgerRows(from, end) : state.contacts.rows.slice(from, end).map((c) => ({ ...c, attributes: { ...c.attributes }, writes: [...c.writes] }));
    next = end < all.length ? end : null;
  }
  return { rows, data: data as LedgerPage<R>['data'], next_cursor: cursor(next), totals: totals(state) };
}

function fromCursor(prefix: string, after: string | null): number {
  if (after === null) return 0;
  const digits = after.startsWith(prefix) ? after.slice(prefix.length) : '';
  if (!/^\d{1,15}$/.test(digits)) throw new LedgerQueryError('after', 'after must be a next_cursor returned by a ledger page of the same rows.');
  return Number(digits);
}

function totals(state: State): LedgerTotals {
  const store = state.messages.store;
  return {
    messages: store.total,
    messages_retained: store.retained,
    messages_evicted: store.total - store.retained,
    duplicates_detected: store.duplicates,
    jobs: state.jobs.rows.length,
    contacts: state.contacts.rows.length,
    requests: state.requests,
    idempotency_keys: state.idempotency.size(state.now()),
  };
}

export function summary(state: State): LedgerSummary {
  state.observe();
  const store = state.messages.store;
  const groups = new Map<string, DuplicateGroup>();
  for (const m of store.page(0, store.retained).rows) {
    const g = JSON.stringify([m.account, m.channel, m.to, m.subject, m.body]);
    const grp = groups.get(g);
    if (grp) {
      grp.count++;
      grp.ids.push(m.id);
    } else groups.set(g, { account: m.account, channel: m.channel, to: m.to, subject: m.subject, body: m.body, count: 1, ids: [m.id] });
  }
  return {
    messages: store.total,
    messages_retained: store.retained,
    messages_by_idempotency_key: Object.fromEntries(store.byIdempotencyKey),
    duplicates_detected: store.duplicates,
    duplicates: [...groups.values()].filter((g) => g.count > 1),
    jobs: state.jobs.rows.length,
    contacts: state.contacts.rows.length,
    requests: state.requests,
  };
}
