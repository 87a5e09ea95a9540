/**
 * `mode: sync-contacts` — the contacts file is the source of truth. Typed attributes are converted by
 * the types the service reports; on `push` only rows changed since the previous commit are sent. Each
 * import chunk is keyed by the run (repository, run id, job, step), the file, its chunk index and its
 * content: a re-run of the same run replays, a new run always applies the file (A → B → A ends with A),
 * and matrix legs with different files never share a key.
 *
 * The file is streamed: pass 1 checks every row (one holding the API key means nothing is sent) and
 * matches it against the previous version's index; pass 2 imports the rows to send in groups; after the
 * jobs are waited for, pass 3 reports every row at its line. Each later pass reads the file only as pass
 * 1 saw it (verified-rows.ts).
 */
import { describeImportResults, jobRowPlace, MAX_IMPORT_CONTACTS, refusedText, rowErrorAsApiError, stillRunning } from '../../../src/index.ts';
import type { ApiError, ImportChunk, ImportResults } from '../../../src/index.ts';
import { attributeTypes, convertAttributes } from '../attributes.ts';
import type { AttributeTypes } from '../attributes.ts';
import { InputError } from '../inputs.ts';
import { maskRecipient } from '../mask.ts';
import { addRow } from '../report.ts';
import type { Detail } from '../report.ts';
import { ACTION_WORDS } from '../surface-words.ts';
import { importContacts } from './contact-import.ts';
import { allResults, chunkResults, waitForJobs } from './contact-results.ts';
import { previousRows } from './previous-rows.ts';
import type { PreviousRows } from './previous-rows.ts';
import { callFailure, errorFields, openRecords, rowLevel, writeKeys } from './shared.ts';
import type { ModeContext, RecordSource } from './shared.ts';
import { GroupDigests } from './two-pass.ts';
import { RowSet, verifiedRecords } from './verified-rows.ts';
import type { IndexedRecord } from './verified-rows.ts';

export function recipientOf(c: Record<string, unknown>): string | undefined {
  return typeof c.email === 'string' ? c.email : typeof c.whatsapp === 'string' ? c.whatsapp : undefined;
}

const identity = (value: Record<string, unknown>): string => String(recipientOf(value) ?? JSON.stringify(value)).toLowerCase();

/** Rows a pass reads (and checks) at once. */
const ROW_GROUP = 1000;

interface Checked {
  digests: GroupDigests;
  /** Rows to send: new or changed since the previous version (every row on a full sync). */
  toSend: RowSet;
  sending: number;
}

/** Pass 1. */
async function check(ctx: ModeContext, source: RecordSource, previous: PreviousRows | undefined): Promise<Checked> {
  const digests = new GroupDigests(ROW_GROUP);
  const toSend = new RowSet();
  let sending = 0;
  let holding: number | undefined;
  for await (const r of source.records()) {
    const i = digests.count;
    digests.add(r.value);
    if (holding === undefined && ctx.log.holdsSecret(r.value)) holding = r.line;
    if (!previous?.index.take(r.value)) {
      toSend.add(i);
      sending += 1;
    }
  }
  digests.end();
  const path = source.file.path;
  if (digests.count === 0) throw new InputError('file', `${path} holds no contacts.`);
  ctx.report.file = path;
  if (holding !== undefined) throw new InputError('file', `${path}:${holding}: the contact holds the API key (in some form): it is never sent. Nothing was sent.`);
  return { digests, toSend, sending };
}

/** Previous rows no current row matched, by identity: removed when no current row has that identity. */
async function removedCandidates(previous: PreviousRows | undefined): Promise<Map<string, { line: number; recipient?: string }[]>> {
  const candidates = new Map<string, { line: number; recipient?: string }[]>();
  if (!previous?.index.anyUnmatched) return candidates;
  for await (const r of previous.records()) {
    if (!previous.index.unmatched(r.value)) continue;
    const who = recipientOf(r.value);
    const id = identity(r.value);
    candidates.set(id, [...(candidates.get(id) ?? []), { line: r.line, recipient: who ? maskRecipient(who) : undefined }]);
  }
  return candidates;
}

function rowFailure(ctx: ModeContext, path: string, r: IndexedRecord, error: string, param: string): void {
  // The row's own addresses are masked verbatim in what quotes them, as the run's recipients always were.
  const forget = ctx.log.remember(['whatsapp', 'email'].map((f) => r.value[f]).filter((v): v is string => typeof v === 'string'));
  addRow(ctx.report, { index: r.index, line: r.line, recipient: maskRecipient(recipientOf(r.value) ?? ''), status: 'failed', error: { code: 'invalid_value', message: ctx.log.mask(error), param } });
  ctx.log.annotate(rowLevel(ctx), `Contact not sent: ${error}`, { file: path, startLine: r.line });
  forget();
}

export async function syncContactsMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report, log } = ctx;
  if (!s.file) throw new InputError('file', 'is required in sync-contacts mode: a CSV, JSON Lines, JSON or YAML file of contacts.');
  const source = openRecords(ctx, 'file', s.file, ['contacts'], 'contact');
  const path = source.file.path;
  const previous = await previousRows(ctx, source.file, source.format);
  const { digests, toSend, sending } = await check(ctx, source, previous);
  const candidates = await removedCandidates(previous);
  const types: AttributeTypes = s.dryRun ? new Map() : attributeTypes(await ctx.client().contactAttributes.list());
  const details: Detail[] = [
    { label: 'File', value: path, code: true },
    { label: 'Contacts', value: digests.count },
  ];
  report.details.push(details);
  report.counts.queued = 0;
  let imported = { contacts: 0, sent: 0 };
  const present = new Set<string>();
  /** Pass 2 and 3: the rows to send, as pass 1 read them; pass 2 also notes which removal candidates are still here. */
  async function* rowsToSend(notePresent: boolean): AsyncGenerator<IndexedRecord> {
    for await (const r of verifiedRecords(source, digests, () => `${imported.sent} contact(s) were sent for import before it.`)) {
      if (notePresent && candidates.size && candidates.has(identity(r.value))) present.add(identity(r.value));
      if (toSend.has(r.index)) yield r;
    }
  }

  let chunks: { chunk: ImportChunk; lines?: string }[] = [];
  let stop: ApiError | undefined;
  if (s.dryRun) {
    const firstChunk: Record<string, unknown>[] = [];
    const ranges: { first: number; last: number; count: number }[] = [];
    for await (const r of rowsToSend(true)) {
      const converted = convertAttributes(r.value, types);
      if (!('contact' in converted)) {
        rowFailure(ctx, path, r, converted.error, converted.param);
        continue;
      }
      if (firstChunk.length < MAX_IMPORT_CONTACTS) firstChunk.push(converted.contact);
      const at = imported.contacts++ % MAX_IMPORT_CONTACTS;
      if (at === 0) ranges.push({ first: r.line, last: r.line, count: 0 });
      Object.assign(ranges[ranges.length - 1], { last: r.line, count: at + 1 });
    }
    report.idempotencyKey = imported.contacts ? writeKeys(ctx, { file: path }, firstChunk, MAX_IMPORT_CONTACTS, imported.contacts).first : '';
    ranges.forEach((x, c) => report.jobs.push({ id: `(job ${c + 1} of ${ranges.length})`, lines: x.first === x.last ? String(x.first) : `${x.first}–${x.last}`, status: 'dry-run', total: x.count }));
  } else {
    log.info(`Importing ${sending} row(s) of ${path} in jobs of ≤ ${MAX_IMPORT_CONTACTS} contacts${s.wait ? `, waiting up to ${s.waitTimeoutMs / 1000} s` : ''}…`);
    const deadline = Date.now() + s.waitTimeoutMs;
    const out = await importContacts(ctx, path, rowsToSend(true), types, recipientOf);
    imported = { contacts: out.contacts, sent: out.contacts };
    chunks = out.chunks;
    stop = out.error;
    report.idempotencyKey = out.first;
    const waits = s.wait ? await waitForJobs(ctx, chunks.map((c) => c.chunk), deadline) : undefined;
    for (const { chunk: c, lines } of chunks) {
      if (c.status !== 'queued') continue;
      const wait = waits?.get(c.job.id);
      const job = wait?.result.job ?? c.job;
      const status = !s.wait ? 'queued' : wait?.result.status === 'completed' ? 'completed' : 'unfinished';
      report.jobIds.push(c.job.id);
      report.counts.queued! += c.count;
      report.jobs.push({ id: c.job.id, lines, status, total: job.total, processed: job.processed, failed: job.failed, replayed: c.call.replayed });
    }
    await reportRows(ctx, path, rowsToSend(false), types, chunks.map((c) => c.chunk), waits);
    if (out.contacts) reportImport(ctx, allResults(chunks.map((c) => c.chunk), waits), stop);
  }
  const jobs = Math.ceil(imported.contacts / MAX_IMPORT_CONTACTS);
  details.push({ label: 'To import', value: imported.contacts }, { label: 'Jobs', value: `${jobs} (≤ ${MAX_IMPORT_CONTACTS} contacts each)` });
  if (previous) {
    report.removed = [...candidates].filter(([id]) => !present.has(id)).flatMap(([, rows]) => rows).sort((a, b) => a.line - b.line);
    log.info(`Incremental sync: ${sending} of ${digests.count} row(s) changed since ${previous.before.slice(0, 7)}; ${report.removed.length} removed.`);
  }
  if (!imported.contacts && !s.dryRun) log.info('Nothing to import: no row changed.');
  finish(ctx, path);
}

/** The import's notes, status and failures, from every chunk's results. */
function reportImport(ctx: ModeContext, results: ImportResults, stop: ApiError | undefined): void {
  const { settings: s, report, log } = ctx;
  for (const re of results.unplacedRowErrors) {
    const error = rowErrorAsApiError(re);
    const place = `${jobRowPlace(re.jobId, { element: re.rowInJob, error })}${re.outsideChunk ? ', outside its chunk' : ''}`;
    log.annotate(rowLevel(ctx), refusedText('contact', error, { words: ACTION_WORDS, which: place }));
  }
  report.counts.failed += results.unplacedRowErrors.length;
  report.notes.push(`Contacts: ${log.mask(describeImportResults(results, ACTION_WORDS))}.`);
  report.jobStatus = stop ? 'failed' : !s.wait ? 'queued' : results.unfinishedJobIds.length ? 'unfinished' : 'completed';
  if (stop?.outcomeUnknown || results.counts.unknown) report.jobStatus = 'unknown';
  const replays = report.jobs.filter((j) => j.replayed).length;
  if (replays) report.notes.push(`${replays} job(s) replayed: this run had already imported the same contacts under the same key (a re-run), so nothing was imported twice.`);
  if (!stop?.outcomeUnknown) callFailure(ctx, stop);
  if (s.wait && results.unfinishedJobIds.length) {
    report.failures.push(`The import did not finish within wait-timeout (${s.waitTimeoutMs / 1000} s); ${stillRunning(results.unfinishedJobIds, ACTION_WORDS, true)}.`);
  }
}

/** Pass 3: every row sent (or refused before sending) at its index and line, with its contact's result. */
async function reportRows(ctx: ModeContext, path: string, rows: AsyncIterable<IndexedRecord>, types: AttributeTypes, chunks: ImportChunk[], waits: Parameters<typeof chunkResults>[1]): Promise<void> {
  const { report, log } = ctx;
  let k = 0;
  let at = -1;
  let current: { chunk: ImportChunk; results: ReturnType<typeof chunkResults> } | undefined;
  for await (const r of rows) {
    const converted = convertAttributes(r.value, types);
    if (!('contact' in converted)) {
      rowFailure(ctx, path, r, converted.error, converted.param);
      continue;
    }
    while (!current || k >= current.chunk.offset + current.chunk.count) {
      const chunk = chunks[++at];
      current = { chunk, results: chunkResults(chunk, waits) };
    }
    const result = current.results.contacts[k - current.chunk.offset];
    k += 1;
    const who = recipientOf(r.value);
    const forget = log.remember(who ? [who] : []);
    const error = result.error ? errorFields(ctx, result.error) : undefined;
    addRow(report, { index: r.index, line: r.line, recipient: maskRecipient(who ?? ''), status: result.status, key: result.idempotencyKey, ...(error ? { error } : {}) });
    if (result.status === 'failed' && error && result.jobId) {
      log.annotate(rowLevel(ctx), refusedText('contact', result.error!, { words: ACTION_WORDS, which: `job ${result.jobId}` }), { file: path, startLine: r.line });
    }
    forget();
  }
}

function finish(ctx: ModeContext, path: string): void {
  const { report } = ctx;
  const count = (status: string) => report.rowCounts[status] ?? 0;
  report.counts.imported = count('imported');
  report.counts.failed += count('failed');
  report.counts.unknown = count('unknown');
  report.counts.notAttempted = count('not_attempted');
  if (report.counts.failed) report.failures.push(`${report.counts.failed} contact row(s) failed to import (annotated at their lines in ${path}).`);
  if (report.counts.unknown) report.failures.push(`${report.counts.unknown} contact row(s) unknown: the import may or may not have been accepted. Send again with the same key (re-run this job): the service replays or completes it, never twice.`);
}
