/** A message send's outcome (send, batch) as report rows: every input sent, failed, unknown or not attempted. */
import type { BulkOutcome } from '../../../src/index.ts';
import type { Row } from '../report.ts';
import { callFailure, errorFields } from './shared.ts';
import type { ModeContext } from './shared.ts';

export function applyMessageOutcome(ctx: ModeContext, outcome: BulkOutcome, describe: (index: number) => Partial<Row>): void {
  const { report } = ctx;
  let replayed = 0;
  for (const r of outcome.results) {
    const key = 'call' in r ? r.call.idempotencyKey : undefined;
    const base = { index: r.index, ...describe(r.index), ...(key ? { key } : {}) };
    if (r.status === 'sent') {
      if (r.call.replayed) replayed += 1;
      report.rows.push({ ...base, status: r.call.replayed ? 'replayed' : 'sent', id: r.id });
      report.ids.push(r.id);
    } else {
      report.rows.push({ ...base, status: r.status, error: errorFields(ctx, r.error) });
    }
  }
  const count = (status: string) => report.rows.filter((r) => r.status === status).length;
  report.counts.sent = count('sent') + count('replayed');
  report.counts.failed = count('failed');
  report.counts.unknown = count('unknown');
  report.counts.notAttempted = count('not_attempted');
  if (replayed) report.notes.push(`${replayed} message(s) had already been sent by an earlier attempt of this run: the service replayed its answer and nothing was sent twice.`);
  if (report.counts.unknown) {
    report.failures.push(`${report.counts.unknown} message(s) unknown: the service may or may not have sent them. Do not send them as new messages: send again with the same key (re-run this job, or set idempotency-key to ${report.idempotencyKey}); the service then replays or completes them, never twice.`);
  } else callFailure(ctx, outcome.error);
  const refused = outcome.results.filter((r) => r.status === 'failed' && !r.wholeCall).length;
  if (refused) report.failures.push(`${refused} message(s) were refused by the service (see the summary for each error code).`);
  if (report.counts.notAttempted && !outcome.error) report.failures.push(`${report.counts.notAttempted} message(s) were not attempted.`);
}
