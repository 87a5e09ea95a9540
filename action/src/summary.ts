/** The job summary as Markdown: masked by the callers, truncated well under the runner's 1 MiB. */
import type { Report } from './report.ts';
import type { CoreLike } from './types.ts';

export const MAX_SUMMARY_BYTES = 256 * 1024;
export const MAX_SUMMARY_ROWS = 1000;

function cell(text: string | number | undefined): string {
  if (text === undefined || text === '') return '';
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\r?\n|\r/g, ' ');
}

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

function countsTable(report: Report): string[] {
  const c = report.counts;
  const counts: [string, string][] = [];
  if (report.mode === 'send' || report.mode === 'batch') {
    counts.push(['Sent', String(c.sent)], ['Failed', String(c.failed)], ['Unknown', String(c.unknown)], ['Not attempted', String(c.notAttempted)]);
  } else {
    if (c.queued !== undefined) counts.push(['Queued', String(c.queued)]);
    counts.push(['Imported', String(c.imported)], ['Failed rows', String(c.failed)], ['Unknown', String(c.unknown)]);
    if (c.notAttempted) counts.push(['Not attempted', String(c.notAttempted)]);
    if (report.jobStatus) counts.push(['Job status', report.jobStatus]);
  }
  if (report.idempotencyKey) counts.push(['Idempotency key', `\`${cell(report.idempotencyKey)}\``]);
  return [`| ${counts.map((x) => x[0]).join(' | ')} |`, `|${counts.map(() => '---').join('|')}|`, `| ${counts.map((x) => x[1]).join(' | ')} |`, ''];
}

function rowsTable(report: Report): string[] {
  // Contact imports list only the rows worth a look; message runs list every recipient.
  const rows = report.mode === 'sync-contacts' || report.mode === 'job' ? report.rows.filter((r) => r.status !== 'imported' && r.status !== 'queued') : report.rows;
  if (!rows.length) return [];
  const withLine = rows.some((r) => r.line !== undefined);
  const withRecipient = rows.some((r) => r.recipient !== undefined);
  const withKey = rows.some((r) => r.status === 'unknown');
  const head = ['#', ...(withLine ? [`Line${report.file ? ` (${cell(report.file)})` : ''}`] : []), ...(withRecipient ? ['Recipient'] : []), 'Status', 'Id or error', ...(withKey ? ['Idempotency key'] : [])];
  const out = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`];
  let size = 0;
  let shown = 0;
  for (const r of rows) {
    const detail = r.id ? `\`${cell(r.id)}\`` : r.error ? `\`${cell(r.error.code)}\` ${cell(r.error.message)}${r.error.param ? ` (field \`${cell(r.error.param)}\`)` : ''}` : '';
    const key = withKey ? ` ${r.key && r.status === 'unknown' ? `\`${cell(r.key)}\`` : ''} |` : '';
    const line = `| ${r.index + 1} | ${withLine ? `${cell(r.line)} | ` : ''}${withRecipient ? `\`${cell(r.recipient)}\` | ` : ''}${STATUS_ICON[r.status] ?? cell(r.status)} | ${detail} |${key}`;
    if (shown >= MAX_SUMMARY_ROWS || size + line.length > MAX_SUMMARY_BYTES) break;
    out.push(line);
    size += line.length + 1;
    shown += 1;
  }
  if (shown < rows.length) out.push('', `_${rows.length - shown} more rows not shown (the summary is kept small); every row is in \`results-file\`._`);
  out.push('');
  return out;
}

export function summaryMarkdown(report: Report): string {
  const out: string[] = [`### Messaging Service — ${report.mode}${report.dryRun ? ' (dry run: nothing was sent)' : ''}`, ''];
  for (const d of report.details) out.push(`${d}  `);
  if (report.details.length) out.push('');
  out.push(...countsTable(report));
  if (report.fatal) out.push(`> [!CAUTION]`, `> ${cell(report.fatal)}`, '');
  for (const f of report.failures.slice(0, 5)) out.push(`> [!WARNING]`, `> ${cell(f)}`, '');
  for (const n of report.notes) out.push(`- ${cell(n)}`);
  if (report.notes.length) out.push('');
  if (report.jobs.length) {
    out.push('| Job | Rows | Status | Processed | Failed |', '|---|---|---|---|---|');
    for (const j of report.jobs) {
      out.push(`| \`${cell(j.id)}\`${j.replayed ? ' (replayed)' : ''} | ${cell(j.lines)} | ${STATUS_ICON[j.status] ?? cell(j.status)} | ${cell(j.processed)}${j.total !== undefined ? ` / ${j.total}` : ''} | ${cell(j.failed)} |`);
    }
    out.push('');
  }
  if (report.removed.length) {
    out.push(`**${report.removed.length} row(s) removed from the file since the previous commit** — the service has no delete endpoint, so these contacts are still there:`, '');
    for (const r of report.removed.slice(0, 200)) out.push(`- line ${r.line} of the previous version${r.recipient ? `: \`${cell(r.recipient)}\`` : ''}`);
    if (report.removed.length > 200) out.push(`- and ${report.removed.length - 200} more (see results-file)`);
    out.push('');
  }
  out.push(...rowsTable(report));
  return out.join('\n');
}

export async function writeSummary(core: CoreLike, report: Report): Promise<void> {
  try {
    await core.summary.addRaw(summaryMarkdown(report), true).write();
  } catch (error) {
    // No GITHUB_STEP_SUMMARY (e.g. a local run): the summary is optional, the outputs are not.
    core.debug(`Job summary not written: ${(error as Error).message}`);
  }
}
