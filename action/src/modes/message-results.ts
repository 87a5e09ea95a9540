/** A message send's outcome (send, batch) as report rows: every input sent, failed, unknown or not attempted. */
import { describeOutcome, replayedCount } from '../../../src/index.ts';
import type { BulkOutcome } from '../../../src/index.ts';
import type { Row } from '../report.ts';
import { callFailure, errorFields } from './shared.ts';
import type { ModeContext } from './shared.ts';

export function applyMessageOutcome(ctx: ModeContext, outcome: BulkOutcome, describe: (index: number) => Partial<Row>): void {
  const { report } = ctx;
  for (const r of outcome.results) {
    const base = { index: r.index, ...describe(r.index), key: r.call.idempotencyKey };
    if (r.status === 'sent') {
      report.rows.push({ ...base, status: r.call.replayed ? 'replayed' : 'sent', id: r.id });
      report.ids.push(r.id);
    } else report.rows.push({ ...base, status: r.status, error: errorFields(ctx, r.error) });
  }
  const replayed = replayedCount(outcome.results);
  report.counts = { ...report.counts, sent: outcome.sent, failed: outcome.failed, unknown: outcome.unknown, notAttempted: outcome.notAttempted };
  report.notes.push(`Messages: ${describeOutcome({ ...outcome, replayed })}.`);
  if (outcome.unknown) report.failures.push(`${outcome.unknown} message(s) unknown: the service may or may not have sent them. Do not send them as new messages: re-run this job (same keys; each is in the summary and results-file), and the service replays or completes them, never twice.`);
  if (outcome.error && !outcome.error.outcomeUnknown) callFailure(ctx, outcome.error);
  const refused = outcome.results.filter((r) => r.status === 'failed' && !r.wholeCall).length;
  if (refused) report.failures.push(`${refused} message(s) were refused by the service (see the summary for each error code).`);
  if (outcome.notAttempted && !outcome.error) report.failures.push(`${outcome.notAttempted} message(s) were not attempted.`);
}
