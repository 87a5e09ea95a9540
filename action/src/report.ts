/**
 * What a run produced, in one place: the outputs (written before the step fails), the full results file
 * and the failures that decide the step's fate. The job summary is summary.ts.
 */
import { RENAMED_OUTPUTS } from './renamed.ts';
import { ResultsFile } from './results-file.ts';
import { MAX_SUMMARY_ROWS } from './summary.ts';
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
  /**
   * The rows the summary shows (those worth a look, the first MAX_SUMMARY_ROWS): add rows with addRow,
   * which also writes each to results-file and keeps the counts and the bounded `results` output.
   */
  rows: Row[];
  /** Rows the summary would list but that were not kept in `rows`. */
  rowsNotKept: number;
  /** Every row reported, by status. */
  rowCounts: Record<string, number>;
  results: ResultsOutput;
  /** Open once the run starts (RUNNER_TEMP set): every row and id is written there as it comes. */
  resultsFile?: ResultsFile;
  jobs: JobRow[];
  /** The first MAX_IDS ids (every id is in results-file). */
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
  return { mode, dryRun, details: [], rows: [], rowsNotKept: 0, rowCounts: {}, results: new ResultsOutput(), jobs: [], ids: [], counts: { sent: 0, imported: 0, failed: 0, unknown: 0, notAttempted: 0 }, jobIds: [], jobStatus: '', idempotencyKey: '', failures: [], notes: [], removed: [] };
}

export const MAX_RESULTS_BYTES = 512 * 1024;
/** A job's outputs share 1 MB: `ids` keeps the first 1,000 (≈ 30 KB); every id is in results-file. */
export const MAX_IDS = 1000;


function entryOf(r: Row): Record<string, unknown> {
  const replayed = r.status === 'replayed' ? true : undefined;
  return { index: r.index, line: r.line, status: replayed ? 'sent' : r.status, replayed, id: r.id, key: r.key, error: r.error };
}

/** The `results` output: one entry per row, no recipients; cut (with a final marker) past 512 KiB. */
export class ResultsOutput {
  private readonly entries: string[] = [];
  private size = 2;
  private omitted = 0;

  add(r: Row): void {
    if (this.omitted) {
      this.omitted += 1;
      return;
    }
    const entry = JSON.stringify(entryOf(r));
    if (this.size + entry.length + 1 > MAX_RESULTS_BYTES - 64) this.omitted = 1;
    else {
      this.entries.push(entry);
      this.size += entry.length + 1;
    }
  }

  toString(): string {
    const marker = this.omitted ? [JSON.stringify({ truncated: true, omitted: this.omitted, see: 'results-file' })] : [];
    return `[${[...this.entries, ...marker].join(',')}]`;
  }
}

export function resultsJson(rows: Row[]): string {
  const out = new ResultsOutput();
  for (const r of rows) out.add(r);
  return out.toString();
}

/** The summary lists only the rows worth a look in contact modes; every row in message modes. */
function listedInSummary(report: Report, r: Row): boolean {
  return !(report.mode === 'sync-contacts' || report.mode === 'import-status') || (r.status !== 'imported' && r.status !== 'queued');
}

/** Reports one row: counted, written to results-file, kept for the summary and `results` while they have room. */
export function addRow(report: Report, row: Row): void {
  report.rowCounts[row.status] = (report.rowCounts[row.status] ?? 0) + 1;
  report.results.add(row);
  report.resultsFile?.row(entryOf(row));
  if (!listedInSummary(report, row)) return;
  if (report.rows.length < MAX_SUMMARY_ROWS) report.rows.push(row);
  else report.rowsNotKept += 1;
}

/** Reports one message id: the first MAX_IDS kept for the output, every one written to results-file. */
export function addId(report: Report, id: string): void {
  if (report.ids.length < MAX_IDS) report.ids.push(id);
  report.resultsFile?.id(id);
}

type Clean = (text: string) => string;
const same: Clean = (text) => text;

/** Ends results-file (opening it first when the run never got that far) and returns its path; '' without RUNNER_TEMP. */
export function writeResultsFile(report: Report, env: NodeJS.ProcessEnv, clean: Clean = same): string {
  const file = report.resultsFile ?? ResultsFile.open(env, clean);
  if (!file) return '';
  const { mode, counts, jobIds, jobStatus, idempotencyKey, removed } = report;
  return file.close({ mode, counts, jobIds, jobStatus, idempotencyKey, removed });
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
    results: report.results.toString(),
    'results-file': resultsFile,
    'idempotency-key': report.idempotencyKey,
  };
  for (const [old, current] of Object.entries(RENAMED_OUTPUTS)) outputs[old] = outputs[current];
  for (const [name, value] of Object.entries(outputs)) core.setOutput(name, clean(value));
}
