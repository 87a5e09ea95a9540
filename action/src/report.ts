/**
 * What a run produced, in one place: the outputs (written before the step fails), the full results file
 * and the failures that decide the step's fate. The job summary is summary.ts.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RENAMED_OUTPUTS } from './renamed.ts';
import type { CoreLike } from './types.ts';

export interface Row {
  /** Zero-based index in the caller's input (recipient, message or contact). */
  index: number;
  /** 1-based line in the data file, when there is one. */
  line?: number;
  /** Already masked. */
  recipient?: string;
  /** sent, replayed, failed, unknown, not_attempted (messages); imported, failed, unknown, not_attempted, queued, unfinished (contacts); dry-run. */
  status: string;
  id?: string;
  /** The idempotency key of the call that carried this item: sending again with it never sends twice. */
  key?: string;
  /** Already masked. */
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

export interface Counts {
  /** Messages created (send, batch). */
  sent: number;
  /** Contact rows imported without error (sync-contacts, job). */
  imported: number;
  failed: number;
  /** Writes whose outcome is unknown: send again with the same key. */
  unknown: number;
  notAttempted: number;
  queued?: number;
}

/** One labelled value shown under the summary's title (e.g. the rendered subject): data, never markup. */
export interface Detail {
  label: string;
  value: string | number;
  /** Shown as a code span (paths, ids). */
  code?: boolean;
}

export interface Report {
  mode: string;
  dryRun: boolean;
  /** Lines shown under the title, each of labelled values. Already masked. */
  details: Detail[][];
  file?: string;
  rows: Row[];
  jobs: JobRow[];
  ids: string[];
  counts: Counts;
  jobIds: string[];
  jobStatus: string;
  idempotencyKey: string;
  /** Delivery failures: fail the step when fail-on-error is true, else warnings. */
  failures: string[];
  /** Fails the step whatever fail-on-error says (invalid input, authentication, unexpected errors). */
  fatal?: string;
  /** Retry, rate-limit, replay and annotation notes for the summary. */
  notes: string[];
  /** Rows in the previous version of the file that are gone from this one (incremental sync), masked. */
  removed: { line: number; recipient?: string }[];
}

export function newReport(mode: string, dryRun: boolean): Report {
  return { mode, dryRun, details: [], rows: [], jobs: [], ids: [], counts: { sent: 0, imported: 0, failed: 0, unknown: 0, notAttempted: 0 }, jobIds: [], jobStatus: '', idempotencyKey: '', failures: [], notes: [], removed: [] };
}

export const MAX_RESULTS_BYTES = 512 * 1024;
/** A job's outputs share 1 MB: `ids` keeps the first 1,000 (≈ 30 KB); every id is in results-file. */
export const MAX_IDS = 1000;

function entryOf(r: Row): Record<string, unknown> {
  const replayed = r.status === 'replayed' ? true : undefined;
  return { index: r.index, line: r.line, status: replayed ? 'sent' : r.status, replayed, id: r.id, key: r.key, error: r.error };
}

/** The `results` output: one entry per row, no recipients; cut (with a final marker) past 512 KiB. */
export function resultsJson(rows: Row[]): string {
  const entries: string[] = [];
  let size = 2;
  for (const r of rows) {
    const entry = JSON.stringify(entryOf(r));
    if (size + entry.length + 1 > MAX_RESULTS_BYTES - 64) {
      entries.push(JSON.stringify({ truncated: true, omitted: rows.length - entries.length, see: 'results-file' }));
      break;
    }
    entries.push(entry);
    size += entry.length + 1;
  }
  return `[${entries.join(',')}]`;
}

type Clean = (text: string) => string;
const same: Clean = (text) => text;

/**
 * Every row, uncut, as JSON under RUNNER_TEMP (the runner empties it after the job). '' when unset.
 * `clean` removes the key (in every form) from the JSON text: masking the log does not reach this file.
 */
export function writeResultsFile(report: Report, env: NodeJS.ProcessEnv, clean: Clean = same): string {
  const dir = env.RUNNER_TEMP;
  if (!dir) return '';
  const path = join(dir, `messaging-service-results-${randomUUID()}.json`);
  const { mode, counts, jobIds, jobStatus, idempotencyKey, ids } = report;
  writeFileSync(path, clean(JSON.stringify({ mode, counts, ids, jobIds, jobStatus, idempotencyKey, results: report.rows.map(entryOf), removed: report.removed }, null, 1)));
  return path;
}

/** The outputs, each cleaned of the key (in every form): the runner masks only the log, not GITHUB_OUTPUT. */
export function writeOutputs(core: CoreLike, report: Report, resultsFile: string, clean: Clean = same): void {
  const c = report.counts;
  const outputs: Record<string, string> = {
    ids: JSON.stringify(report.ids.slice(0, MAX_IDS)),
    // Counts are numbers in every mode (0 where nothing of the kind happens), so `outputs.sent > 0` and
    // `fromJSON(outputs.failed)` work whatever the mode.
    sent: String(c.sent),
    imported: String(c.imported),
    failed: String(c.failed),
    unknown: String(c.unknown),
    'not-attempted': String(c.notAttempted),
    queued: String(c.queued ?? 0),
    'import-job-ids': JSON.stringify(report.jobIds),
    'import-status': report.jobStatus,
    results: resultsJson(report.rows),
    'results-file': resultsFile,
    'idempotency-key': report.idempotencyKey,
  };
  for (const [old, current] of Object.entries(RENAMED_OUTPUTS)) outputs[old] = outputs[current];
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, clean(value));
}
