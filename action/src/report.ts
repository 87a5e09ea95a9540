/**
 * What a run produced, in one place: the outputs (written before the step fails), the job summary
 * (masked, truncated well under the 1 MiB limit) and the failures that decide the step's fate.
 */
import type { CoreLike } from './types.ts';

export interface Row {
  /** Zero-based index in the caller's input (recipient, message or contact). */
  index: number;
  /** 1-based line in the data file, when there is one. */
  line?: number;
  /** Already masked. */
  recipient?: string;
  status: string;
  id?: string;
  error?: { code: string; message: string; param?: string };
}

export interface JobRow {
  id: string;
  lines?: string;
  status: string;
  total?: number;
  processed?: number;
  failed?: number;
  replayed?: boolean;
}

export interface Report {
  mode: string;
  dryRun: boolean;
  /** Shown under the title, e.g. the rendered subject. Already masked. */
  details: string[];
  file?: string;
  rows: Row[];
  jobs: JobRow[];
  ids: string[];
  sent: number;
  failed: number;
  notAttempted: number;
  queued?: number;
  jobIds: string[];
  jobStatus: string;
  idempotencyKey: string;
  /** Delivery failures: fail the step when fail-on-error is true, else warnings. */
  failures: string[];
  /** Fails the step whatever fail-on-error says (invalid input, authentication, unexpected errors). */
  fatal?: string;
  /** Retry and rate-limit notes for the summary. */
  notes: string[];
}

export function newReport(mode: string, dryRun: boolean): Report {
  return { mode, dryRun, details: [], rows: [], jobs: [], ids: [], sent: 0, failed: 0, notAttempted: 0, jobIds: [], jobStatus: '', idempotencyKey: '', failures: [], notes: [] };
}

export const MAX_RESULTS_BYTES = 512 * 1024;
export const MAX_SUMMARY_BYTES = 256 * 1024;
export const MAX_SUMMARY_ROWS = 1000;

/** The `results` output: one entry per row, no recipients; cut (with a final marker) past 512 KiB. A replay is `sent` with `replayed: true`. */
export function resultsJson(rows: Row[]): string {
  const entries: string[] = [];
  let size = 2;
  for (const r of rows) {
    const replayed = r.status === 'replayed' ? true : undefined;
    const entry = JSON.stringify({ index: r.index, line: r.line, status: replayed ? 'sent' : r.status, replayed, id: r.id, error: r.error });
    if (size + entry.length + 1 > MAX_RESULTS_BYTES - 64) {
      entries.push(JSON.stringify({ truncated: true, omitted: rows.length - entries.length }));
      break;
    }
    entries.push(entry);
    size += entry.length + 1;
  }
  return `[${entries.join(',')}]`;
}

export function writeOutputs(core: CoreLike, report: Report): void {
  core.setOutput('ids', JSON.stringify(report.ids));
  core.setOutput('sent', String(report.sent));
  core.setOutput('failed', String(report.failed));
  core.setOutput('not-attempted', String(report.notAttempted));
  core.setOutput('queued', report.queued === undefined ? '' : String(report.queued));
  core.setOutput('job-ids', JSON.stringify(report.jobIds));
  core.setOutput('job-status', report.jobStatus);
  core.setOutput('results', resultsJson(report.rows));
  core.setOutput('idempotency-key', report.idempotencyKey);
}

function cell(text: string | number | undefined): string {
  if (text === undefined || text === '') return '';
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

const STATUS_ICON: Record<string, string> = {
  sent: '✅ sent',
  replayed: '♻️ already sent',
  imported: '✅ imported',
  failed: '❌ failed',
  not_attempted: '⏭️ not attempted',
  'dry-run': '🧪 dry run',
  completed: '✅ completed',
  queued: '⏳ queued',
  unfinished: '⏳ unfinished',
};

/** The job summary as Markdown. Every recipient in it is masked by the caller; nothing else is personal. */
export function summaryMarkdown(report: Report): string {
  const out: string[] = [];
  out.push(`### Relay messaging — ${report.mode}${report.dryRun ? ' (dry run: nothing was sent)' : ''}`, '');
  for (const d of report.details) out.push(`${d}  `);
  if (report.details.length) out.push('');
  const counts: [string, string][] = [];
  if (report.mode === 'send' || report.mode === 'batch') {
    counts.push(['Sent', String(report.sent)], ['Failed', String(report.failed)], ['Not attempted', String(report.notAttempted)]);
  } else {
    if (report.queued !== undefined) counts.push(['Queued', String(report.queued)]);
    counts.push(['Imported', String(report.sent)], ['Failed rows', String(report.failed)]);
    if (report.notAttempted) counts.push(['Not attempted', String(report.notAttempted)]);
    if (report.jobStatus) counts.push(['Job status', report.jobStatus]);
  }
  if (report.idempotencyKey) counts.push(['Idempotency key', `\`${report.idempotencyKey}\``]);
  out.push(`| ${counts.map((c) => c[0]).join(' | ')} |`, `|${counts.map(() => '---').join('|')}|`, `| ${counts.map((c) => c[1]).join(' | ')} |`, '');
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

  // Contact imports list only the rows worth a look; message runs list every recipient.
  const rows = report.mode === 'sync-contacts' || report.mode === 'job' ? report.rows.filter((r) => r.status !== 'imported' && r.status !== 'queued') : report.rows;
  if (rows.length) {
    const withLine = rows.some((r) => r.line !== undefined);
    const withRecipient = rows.some((r) => r.recipient !== undefined);
    const head = ['#', ...(withLine ? [`Line${report.file ? ` (${cell(report.file)})` : ''}`] : []), ...(withRecipient ? ['Recipient'] : []), 'Status', 'Id or error'];
    out.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
    let size = out.join('\n').length;
    let shown = 0;
    for (const r of rows) {
      const detail = r.id ? `\`${cell(r.id)}\`` : r.error ? `\`${cell(r.error.code)}\` ${cell(r.error.message)}${r.error.param ? ` (field \`${cell(r.error.param)}\`)` : ''}` : '';
      const line = `| ${r.index + 1} | ${withLine ? `${cell(r.line)} | ` : ''}${withRecipient ? `\`${cell(r.recipient)}\` | ` : ''}${STATUS_ICON[r.status] ?? cell(r.status)} | ${detail} |`;
      if (shown >= MAX_SUMMARY_ROWS || size + line.length > MAX_SUMMARY_BYTES) break;
      out.push(line);
      size += line.length + 1;
      shown += 1;
    }
    if (shown < rows.length) out.push('', `_${rows.length - shown} more rows not shown (the summary is kept small); every row is in the \`results\` output._`);
    out.push('');
  }
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
