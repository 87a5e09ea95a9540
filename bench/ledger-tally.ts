/**
 * Every row of a generated file accounted for in the sandbox's ledger: read in pages over HTTP
 * (GET /__sandbox/ledger?rows=&after=&limit=), each message or contact mapped back to the row its
 * recipient names, then counted: delivered once, lost, or more than once.
 */
import { request } from 'undici';
import { rowOfRecipient } from './generated-files.ts';

export interface Tally {
  /** Rows that arrived exactly once. */
  delivered: number;
  /** Rows expected but never seen. */
  lost: number;
  /** Extra arrivals of a row already seen (a row written 3 times counts 2). */
  duplicates: number;
  /** Arrivals that name no expected row (a refused row that got through, or a stranger). */
  strays: number;
}

/** Counts arrivals per row index: rows 0..rows-1 are expected, except those in `refused`. */
export function tally(arrivals: Iterable<number>, rows: number, refused: ReadonlySet<number> = new Set()): Tally {
  const seen = new Uint32Array(rows);
  let strays = 0;
  for (const i of arrivals) {
    if (Number.isInteger(i) && i >= 0 && i < rows && !refused.has(i)) seen[i]! += 1;
    else strays++;
  }
  const t: Tally = { delivered: 0, lost: 0, duplicates: 0, strays };
  for (let i = 0; i < rows; i++) {
    if (refused.has(i)) continue;
    if (seen[i] === 0) t.lost++;
    else {
      t.delivered++;
      t.duplicates += seen[i]! - 1;
    }
  }
  return t;
}

interface Page {
  data: Record<string, unknown>[];
  next_cursor: string | null;
  totals: Record<string, number>;
}

/** Every row of one kind of the ledger, a page of 1,000 at a time; yields each and returns the last totals. */
export async function* ledgerPages(origin: string, rows: 'messages' | 'contacts' | 'jobs'): AsyncGenerator<Record<string, unknown>, Record<string, number>> {
  let after: string | null = null;
  let totals: Record<string, number> = {};
  do {
    const res = await request(`${origin}/__sandbox/ledger?rows=${rows}&limit=1000${after === null ? '' : `&after=${after}`}`);
    const page = (await res.body.json()) as Page;
    if (res.statusCode !== 200) throw new Error(`ledger: HTTP ${res.statusCode} ${JSON.stringify(page).slice(0, 200)}`);
    yield* page.data;
    after = page.next_cursor;
    totals = page.totals;
  } while (after !== null);
  return totals;
}

export interface LedgerCount extends Tally {
  /** API requests the sandbox received (the ledger's totals). */
  requests: number;
  /** Contact rows the import jobs counted (jobs' totals), or messages created (totals.messages). */
  rowsReceived: number;
}

/** Reads the ledger and tallies the file's rows: messages by `to`, contacts by email with every write they had. */
export async function countLedger(origin: string, kind: 'messages' | 'contacts', rows: number, refused: ReadonlySet<number>): Promise<LedgerCount> {
  const arrivals: number[] = [];
  const pages = ledgerPages(origin, kind);
  let next = await pages.next();
  while (!next.done) {
    const row = next.value;
    const index = rowOfRecipient(String(kind === 'messages' ? row.to : row.email));
    const writes = kind === 'contacts' ? (row.writes as unknown[]).length : 1;
    for (let w = 0; w < writes; w++) arrivals.push(index);
    next = await pages.next();
  }
  const totals = next.value;
  let rowsReceived = totals.messages ?? 0;
  if (kind === 'contacts') {
    rowsReceived = 0;
    for await (const job of ledgerPages(origin, 'jobs')) rowsReceived += Number(job.total);
  }
  return { ...tally(arrivals, rows, refused), requests: totals.requests ?? 0, rowsReceived };
}
