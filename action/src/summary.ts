/**
 * The job summary as Markdown, truncated well under the runner's 1 MiB. Every value in it — from the event,
 * files or the service — is masked by the callers, cleaned of the key by `clean`, and written as text or
 * a code span (markdown.ts): the only markup is the summary's own.
 */
import { mdCode, mdText } from './markdown.ts';
import type { Report } from './report.ts';
import type { CoreLike } from './types.ts';

export const MAX_SUMMARY_BYTES = 256 * 1024;
export const MAX_SUMMARY_ROWS = 1000;

type Clean = (text: string) => string;
const same: Clean = (text) => text;

const STATUS_ICON: Record<string, string> = {
  sent: '✅ sent',
  replayed: '♻️ already sent',
  imported: '✅ imported',
  failed: '❌ failed',
  unknown: '❓ unknown',
  not_attempted: '⏭️ not attempted',
  'dry-run': '🧪 dry run',
  completed: '✅ completed',
  queued: '⏳ queued',
  unfinished: '⏳ unfinished',
};

function countsTable(report: Report, code: (v: string | undefined, inTable?: boolean) => string): string[] {
  const c = report.counts;
  const counts: [string, string][] = [];
  if (report.mode === 'send' || report.mode === 'batch') {
    counts.push(['Sent', String(c.sent)], ['Failed', String(c.failed)], ['Unknown', String(c.unknown)], ['Not attempted', String(c.notAttempted)]);
  } else {
    if (c.queued !== undefined) counts.push(['Queued', String(c.queued)]);
    counts.push(['Imported', String(c.imported)], ['Failed rows', String(c.failed)], ['Unknown', String(c.unknown)]);
    if (c.notAttempted) counts.push(['Not attempted', String(c.notAttempted)]);
    if (report.jobStatus) counts.push(['Import status', report.jobStatus]);
  }
  if (report.idempotencyKey) counts.push(['Idempotency key', code(report.idempotencyKey, true)]);
  return [`| ${counts.map((x) => x[0]).join(' | ')} |`, `|${counts.map(() => '---').join('|')}|`, `| ${counts.map((x) => x[1]).join(' | ')} |`, ''];
}

function rowsTable(report: Report, text: (v: string | number | undefined) => string, code: (v: string | undefined, inTable?: boolean) => string): string[] {
  // Contact imports list only the rows worth a look; message runs list every recipient.
  // (addRow keeps only those, and only the first of them: rowsNotKept counts the rest.)
  const rows = report.mode === 'sync-contacts' || report.mode === 'import-status' ? report.rows.filter((r) => r.status !== 'imported' && r.status !== 'queued') : report.rows;
  if (!rows.length) return [];
  const total = rows.length + report.rowsNotKept;
  const withLine = rows.some((r) => r.line !== undefined);
  // A row of a file is named by its line, as in the log's annotations; a position (#) only where some
  // row has no line (recipients given in the `to` input), so one row is never numbered two ways.
  const withPosition = rows.some((r) => r.line === undefined);
  const withRecipient = rows.some((r) => r.recipient !== undefined);
  const withKey = rows.some((r) => r.status === 'unknown');
  const head = [...(withPosition ? ['#'] : []), ...(withLine ? [`Line${report.file ? ` (${text(report.file)})` : ''}`] : []), ...(withRecipient ? ['Recipient'] : []), 'Status', 'Id or error', ...(withKey ? ['Idempotency key'] : [])];
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  let size = 0;
  let shown = 0;
  for (const r of rows) {
    const detail = r.id ? code(r.id, true) : r.error ? `${code(r.error.code, true)} ${text(r.error.message)}${r.error.param ? ` (field ${code(r.error.param, true)})` : ''}` : '';
    const key = withKey ? ` ${r.key && r.status === 'unknown' ? code(r.key, true) : ''} |` : '';
    const line = `|${withPosition ? ` ${r.index + 1} |` : ''} ${withLine ? `${text(r.line)} | ` : ''}${withRecipient ? `${code(r.recipient, true)} | ` : ''}${STATUS_ICON[r.status] ?? text(r.status)} | ${detail} |${key}`;
    const bytes = Buffer.byteLength(line) + 1;
    if (shown >= MAX_SUMMARY_ROWS || size + bytes > MAX_SUMMARY_BYTES) break;
    out.push(line);
    size += bytes;
    shown += 1;
  }
  if (shown < total) out.push('', `_${total - shown} more rows not shown (the summary is kept small); every row is in \`results-file\`._`);
  out.push('');
  return out;
}

export function summaryMarkdown(report: Report, clean: Clean = same): string {
  const text = (v: string | number | undefined) => (v === undefined ? '' : mdText(clean(String(v))));
  const code = (v: string | undefined, inTable = false) => (v === undefined ? '' : mdCode(clean(v), inTable));
  const out: string[] = [`### Messaging Service — ${text(report.mode)}${report.dryRun ? ' (dry run: nothing was sent)' : ''}`, ''];
  for (const d of report.details) out.push(`${d.map((x) => `**${x.label}:** ${x.code ? code(String(x.value)) : text(x.value)}`).join(' · ')}  `);
  if (report.details.length) out.push('');
  out.push(...countsTable(report, code));
  if (report.fatal) out.push(`> [!CAUTION]`, `> ${text(report.fatal)}`, '');
  for (const f of report.failures.slice(0, 5)) out.push(`> [!WARNING]`, `> ${text(f)}`, '');
  for (const n of report.notes) out.push(`- ${text(n)}`);
  if (report.notes.length) out.push('');
  if (report.jobs.length) {
    out.push('| Import job | Rows | Status | Processed | Failed |', '|---|---|---|---|---|');
    for (const j of report.jobs) {
      out.push(`| ${code(j.id, true)}${j.replayed ? ' (replayed)' : ''} | ${text(j.lines)} | ${STATUS_ICON[j.status] ?? text(j.status)} | ${text(j.processed)}${j.total !== undefined ? ` / ${j.total}` : ''} | ${text(j.failed)} |`);
    }
    out.push('');
  }
  if (report.removed.length) {
    out.push(`**${report.removed.length} row(s) removed from the file since the previous commit** — the service has no delete endpoint, so these contacts are still there:`, '');
    for (const r of report.removed.slice(0, 200)) out.push(`- line ${r.line} of the previous version${r.recipient ? `: ${code(r.recipient)}` : ''}`);
    if (report.removed.length > 200) out.push(`- and ${report.removed.length - 200} more (see results-file)`);
    out.push('');
  }
  out.push(...rowsTable(report, text, code));
  return out.join('\n');
}

export async function writeSummary(core: CoreLike, report: Report, clean: Clean = same): Promise<void> {
  try {
    await core.summary.addRaw(summaryMarkdown(report, clean), true).write();
  } catch (error) {
    // No GITHUB_STEP_SUMMARY (e.g. a local run): the summary is optional, the outputs are not.
    core.debug(`Job summary not written: ${(error as Error).message}`);
  }
}
