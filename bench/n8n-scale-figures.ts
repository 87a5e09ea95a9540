/**
 * The arithmetic of `npm run bench:n8n-scale`, kept apart from n8n so it can be tested: the median of the
 * runs, the ratios the issue sets targets on, and the ledger's account of one run (every message
 * delivered once, in ⌈N/500⌉ calls).
 */
import type { MessageRow } from '../sandbox/server.ts';

/** The nodes measured after the Code node, in the order the table shows them. */
export const VARIANTS = ['noOp', 'setConstant', 'setExpressions', 'sendBatchExpressions', 'sendBatchByField'] as const;
export type Variant = (typeof VARIANTS)[number];

export const VARIANT_LABELS: Record<Variant, string> = {
  noOp: 'NoOp',
  setConstant: 'Set, one constant field',
  setExpressions: 'Set, `{{ $json.to }}` and `{{ $json.body }}`',
  sendBatchExpressions: 'Send Batch, same two expressions',
  sendBatchByField: 'Send Batch, Map Automatically',
};

export const BATCH_SIZE = 500;

/** One measured execution. */
export interface RunFigures {
  /** n8n's own executionTime of the measured node's run. */
  nodeMs: number;
  /** The execution's stoppedAt − startedAt. */
  wallMs: number;
  /** n8n main's peak RSS during the execution minus its RSS just before it. */
  addedRssBytes: number;
  /** n8n main's RSS just before the execution (after a warm-up run). */
  baseRssBytes: number;
}

/** What the sandbox's ledger says one run did. */
export interface LedgerAccount {
  delivered: number;
  /** Expected recipients with no message. */
  missing: number;
  /** Messages beyond the first to one recipient, or to a recipient not asked for. */
  extra: number;
  /** Distinct API requests that created the messages. */
  calls: number;
}

export interface VariantFigures {
  variant: Variant;
  items: number;
  runs: RunFigures[];
  /** Medians of `runs`, field by field. */
  median: RunFigures;
  /** The ledger of each run (Send Batch variants only). */
  ledger?: LedgerAccount[];
}

/** The middle value; for an even count the mean of the two middle ones. */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function medianRun(runs: readonly RunFigures[]): RunFigures {
  return {
    nodeMs: median(runs.map((r) => r.nodeMs)),
    wallMs: median(runs.map((r) => r.wallMs)),
    addedRssBytes: median(runs.map((r) => r.addedRssBytes)),
    baseRssBytes: median(runs.map((r) => r.baseRssBytes)),
  };
}

/** a ÷ b to 3 decimals; null when b is not positive (a NoOp can take 0 ms or add no RSS). */
export function ratio(a: number, b: number): number | null {
  return b > 0 ? Math.round((a / b) * 1000) / 1000 : null;
}

/** The recipient of item n, as the Code node makes it. */
export const recipientOf = (n: number): string => `user${n}@example.com`;
export const bodyOf = (n: number): string => `Message ${n}`;

/** ⌈N/500⌉: the calls a send of N messages takes at the theoretical minimum. */
export const expectedCalls = (items: number): number => Math.ceil(items / BATCH_SIZE);

/** Accounts for the ledger rows of a send of `items` messages to recipientOf(0 … items−1). */
export function accountLedger(rows: Iterable<Pick<MessageRow, 'to' | 'body' | 'request_id'>>, items: number): LedgerAccount {
  const seen = new Uint8Array(items);
  const requests = new Set<string>();
  let delivered = 0;
  let extra = 0;
  for (const row of rows) {
    delivered++;
    requests.add(row.request_id);
    const match = /^user(\d+)@example\.com$/.exec(row.to);
    const n = match ? Number(match[1]) : -1;
    if (n < 0 || n >= items || seen[n] || row.body !== bodyOf(n)) {
      extra++;
      continue;
    }
    seen[n] = 1;
  }
  let missing = 0;
  for (const s of seen) if (!s) missing++;
  return { delivered, missing, extra, calls: requests.size };
}

/** True when the run delivered every message once, at ⌈N/500⌉ calls. */
export function deliveredExactly(account: LedgerAccount, items: number): boolean {
  return account.delivered === items && account.missing === 0 && account.extra === 0 && account.calls === expectedCalls(items);
}

export interface Ratios {
  items: number;
  /** By-field Send Batch ÷ Set with one constant (target ≤ 2): node time, wall time, added RSS. */
  byFieldVsSetConstant?: { nodeTime: number | null; wallTime: number | null; addedRss: number | null };
  /** Expression Send Batch ÷ Set with the same expressions (target ≤ 1.1). */
  expressionsVsSetExpressions?: { nodeTime: number | null; wallTime: number | null; addedRss: number | null };
  /** Each variant's wall time and added RSS ÷ NoOp's (the floor). */
  overNoOp: Partial<Record<Variant, { wallTime: number | null; addedRss: number | null }>>;
}

function compare(a: RunFigures, b: RunFigures) {
  return { nodeTime: ratio(a.nodeMs, b.nodeMs), wallTime: ratio(a.wallMs, b.wallMs), addedRss: ratio(a.addedRssBytes, b.addedRssBytes) };
}

/** The ratios at one input size, from the medians of whichever variants were measured there. */
export function ratiosAt(items: number, figures: readonly VariantFigures[]): Ratios {
  const at = new Map(figures.filter((f) => f.items === items).map((f) => [f.variant, f.median]));
  const out: Ratios = { items, overNoOp: {} };
  const byField = at.get('sendBatchByField');
  const setConstant = at.get('setConstant');
  const expressions = at.get('sendBatchExpressions');
  const setExpressions = at.get('setExpressions');
  if (byField && setConstant) out.byFieldVsSetConstant = compare(byField, setConstant);
  if (expressions && setExpressions) out.expressionsVsSetExpressions = compare(expressions, setExpressions);
  const noOp = at.get('noOp');
  if (noOp) {
    for (const [variant, m] of at) if (variant !== 'noOp') out.overNoOp[variant] = { wallTime: ratio(m.wallMs, noOp.wallMs), addedRss: ratio(m.addedRssBytes, noOp.addedRssBytes) };
  }
  return out;
}
