/**
 * A message send's outcome (send, batch) as report rows: every input sent, failed, unknown or not
 * attempted. A streamed batch adds its calls' outcomes one by one (addMessageResults) and tells the
 * totals once (finishMessageOutcome).
 */
import { describeOutcome } from '../../../src/index.ts';
import type { ApiError, BulkOutcome, ItemResult } from '../../../src/index.ts';
import { addId, addRow } from '../report.ts';
import type { Row } from '../report.ts';
import { callFailure, errorFields } from './shared.ts';
import type { ModeContext } from './shared.ts';

export interface MessageTotals {
  sent: number;
  failed: number;
  unknown: number;
  notAttempted: number;
  replayed: number;
  /** Refused by the service one by one (not as a whole call). */
  refused: number;
}

export function newTotals(): MessageTotals {
  return { sent: 0, failed: 0, unknown: 0, notAttempted: 0, replayed: 0, refused: 0 };
}

/** Rows for `results`, whose indexes start at `offset` in the caller's input. */
export function addMessageResults(ctx: ModeContext, totals: MessageTotals, results: readonly ItemResult[], offset: number, describe: (index: number) => Partial<Row>): void {
  const { report } = ctx;
  for (const r of results) {
    const index = offset + r.index;
    const base = { index, ...describe(index), key: r.call.idempotencyKey };
    if (r.status === 'sent') {
      addRow(report, { ...base, status: r.call.replayed ? 'replayed' : 'sent', id: r.id });
      addId(report, r.id);
      totals.sent += 1;
      if (r.call.replayed) totals.replayed += 1;
    } else {
      addRow(report, { ...base, status: r.status, error: errorFields(ctx, r.error) });
      if (r.status === 'failed') {
        totals.failed += 1;
        if (!r.wholeCall) totals.refused += 1;
      } else if (r.status === 'unknown') totals.unknown += 1;
      else totals.notAttempted += 1;
    }
  }
}

export function finishMessageOutcome(ctx: ModeContext, totals: MessageTotals, error: ApiError | undefined): void {
  const { report } = ctx;
  report.counts = { ...report.counts, sent: totals.sent, failed: totals.failed, unknown: totals.unknown, notAttempted: totals.notAttempted };
  report.notes.push(`Messages: ${describeOutcome(totals)}.`);
  if (totals.unknown) report.failures.push(`${totals.unknown} message(s) unknown: the service may or may not have sent them. Do not send them as new messages: re-run this job (same keys; each is in the summary and results-file), and the service replays or completes them, never twice.`);
  if (error && !error.outcomeUnknown) callFailure(ctx, error);
  if (totals.refused) report.failures.push(`${totals.refused} message(s) were refused by the service (see the summary for each error code).`);
  if (totals.notAttempted && !error) report.failures.push(`${totals.notAttempted} message(s) were not attempted.`);
}

export function applyMessageOutcome(ctx: ModeContext, outcome: BulkOutcome, describe: (index: number) => Partial<Row>): void {
  const totals = newTotals();
  addMessageResults(ctx, totals, outcome.results, 0, describe);
  finishMessageOutcome(ctx, totals, outcome.error);
}
