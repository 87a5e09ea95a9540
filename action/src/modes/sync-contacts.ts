/**
 * `mode: sync-contacts` — the contacts file is the source of truth. Typed attributes are converted by
 * the types the service reports; on `push` only rows changed since the previous commit are sent. Each
 * import chunk is keyed by the run (repository, run id, job, step), the file, its chunk index and its
 * content: a re-run of the same run replays, a new run always applies the file (A → B → A ends with A),
 * and matrix legs with different files never share a key.
 */
import { describeImportResults, importResults, MAX_IMPORT_CONTACTS, stillRunning } from '../../../src/index.ts';
import type { ContactInput, ImportWaitOutcome } from '../../../src/index.ts';
import { attributeTypes, convertAttributes } from '../attributes.ts';
import type { AttributeTypes } from '../attributes.ts';
import { DataFileError, detectFormat, parseRecords } from '../data-files.ts';
import type { DataRecord } from '../data-files.ts';
import { diffRows, previousVersion } from '../incremental.ts';
import { InputError } from '../inputs.ts';
import { maskRecipient } from '../mask.ts';
import { decodeText, EncodingError } from '../workspace-files.ts';
import type { StreamedFile } from '../workspace-files.ts';
import { addRow } from '../report.ts';
import type { Row } from '../report.ts';
import { callFailure, errorFields, progressLogger, readRecords, rowLevel, writeKeys } from './shared.ts';
import type { ModeContext } from './shared.ts';
import { ACTION_WAIT_WORDS } from '../wait-words.ts';

export function recipientOf(c: Record<string, unknown>): string | undefined {
  return typeof c.email === 'string' ? c.email : typeof c.whatsapp === 'string' ? c.whatsapp : undefined;
}

const identity = (r: DataRecord): string => String(recipientOf(r.value) ?? JSON.stringify(r.value)).toLowerCase();

function lineRange(records: DataRecord[], picked: number[], offset: number, count: number): string | undefined {
  const first = records[picked[offset]]?.line;
  const last = records[picked[offset + count - 1]]?.line;
  return first === undefined ? undefined : first === last ? String(first) : `${first}–${last}`;
}

/** Indexes of the rows to send: all of them, or on a push those changed since `before`. */
async function rowsToSend(ctx: ModeContext, file: StreamedFile, records: DataRecord[]): Promise<number[]> {
  const all = records.map((_, i) => i);
  const path = file.path;
  const previous = await previousVersion(ctx.readRoots().workspace, ctx.info.eventName, (ctx.scope.event ?? {}) as Record<string, unknown>, file.repoPath);
  if (previous.status === 'not-push') return all;
  if (previous.status === 'not-followed') {
    ctx.log.info(`Full sync: ${previous.reason}.`);
    return all;
  }
  if (previous.status === 'absent-commit') {
    ctx.log.info(`Full sync: ${previous.reason}. To sync only the changed rows, check out with \`fetch-depth: 2\` (actions/checkout).`);
    return all;
  }
  if (previous.status === 'absent-file') {
    ctx.log.info(`Full sync: ${path} is new in this push.`);
    return all;
  }
  let before: DataRecord[];
  try {
    before = await parseRecords(decodeText(previous.bytes, path), detectFormat(path, ctx.settings.fileFormat), ['contacts'], 'contact');
  } catch (error) {
    // The previous version is history: if it can't be read, the current file is still the truth.
    if (!(error instanceof EncodingError || error instanceof DataFileError)) throw error;
    ctx.log.info(`Full sync: the previous version of ${path} (${previous.before.slice(0, 7)}) could not be read (${error.message}).`);
    return all;
  }
  const diff = diffRows(before, records, identity);
  ctx.report.removed = diff.removed.map((r) => ({ line: r.line, recipient: recipientOf(r.value) ? maskRecipient(recipientOf(r.value)!) : undefined }));
  ctx.log.info(`Incremental sync: ${diff.changed.length} of ${records.length} row(s) changed since ${previous.before.slice(0, 7)}; ${diff.removed.length} removed.`);
  return diff.changed;
}

export async function syncContactsMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report, log } = ctx;
  if (!s.file) throw new InputError('file', 'is required in sync-contacts mode: a CSV, JSON Lines, JSON or YAML file of contacts.');
  const { file, records } = await readRecords(ctx, 'file', s.file, ['contacts'], 'contact');
  if (records.length === 0) throw new InputError('file', `${file.path} holds no contacts.`);
  report.file = file.path;
  for (const r of records) for (const f of ['whatsapp', 'email']) if (typeof r.value[f] === 'string') log.known.add(r.value[f] as string);
  const holding = records.find((r) => log.holdsSecret(r.value));
  if (holding) throw new InputError('file', `${file.path}:${holding.line}: the contact holds the API key (in some form): it is never sent. Nothing was sent.`);

  const types: AttributeTypes = s.dryRun ? new Map() : attributeTypes(await ctx.client().contactAttributes.list());
  const picked: number[] = [];
  const contacts: ContactInput[] = [];
  const rows: Row[] = [];
  for (const i of await rowsToSend(ctx, file, records)) {
    const converted = convertAttributes(records[i].value, types);
    if ('contact' in converted) {
      picked.push(i);
      contacts.push(converted.contact);
      continue;
    }
    rows.push({ index: i, line: records[i].line, recipient: maskRecipient(recipientOf(records[i].value) ?? ''), status: 'failed', error: { code: 'invalid_value', message: log.mask(converted.error), param: converted.param } });
    log.annotate(rowLevel(ctx), `Contact not sent: ${converted.error}`, { file: file.path, startLine: records[i].line });
  }
  const chunks = Math.ceil(contacts.length / MAX_IMPORT_CONTACTS);
  const { keys, first } = writeKeys(ctx, { file: file.path }, contacts, MAX_IMPORT_CONTACTS);
  report.idempotencyKey = contacts.length ? first : '';
  report.counts.queued = 0;
  report.details.push([
    { label: 'File', value: file.path, code: true },
    { label: 'Contacts', value: records.length },
    { label: 'To import', value: contacts.length },
    { label: 'Jobs', value: `${chunks} (≤ ${MAX_IMPORT_CONTACTS} contacts each)` },
  ]);

  if (s.dryRun || contacts.length === 0) {
    for (let c = 0; c < chunks; c++) {
      const offset = c * MAX_IMPORT_CONTACTS;
      const count = Math.min(MAX_IMPORT_CONTACTS, contacts.length - offset);
      report.jobs.push({ id: `(job ${c + 1} of ${chunks})`, lines: lineRange(records, picked, offset, count), status: 'dry-run', total: count });
    }
    if (!contacts.length && !s.dryRun) log.info('Nothing to import: no row changed.');
    finish(ctx, file.path, rows);
    return;
  }
  log.info(`Importing ${contacts.length} contact(s) from ${file.path} in ${chunks} job(s)${s.wait ? `, waiting up to ${s.waitTimeoutMs / 1000} s` : ''}…`);
  const client = ctx.client();
  const onChunk = ctx.onChunk('contacts');
  const outcome = s.wait
    ? await client.contacts.importAndWait(contacts, { idempotencyKey: keys, onChunk, timeoutMs: s.waitTimeoutMs, onProgress: progressLogger(ctx) })
    : await client.contacts.import(contacts, { idempotencyKey: keys, onChunk });
  const results = importResults(outcome);
  // By job id: the two halves of a chunk split after a 413 share its number but not their job.
  const waits = new Map((s.wait ? (outcome as ImportWaitOutcome).waits : []).map((w) => [w.jobId, w.result]));
  for (const c of outcome.chunks) {
    if (c.status !== 'queued') continue;
    const wait = waits.get(c.job.id);
    const job = wait?.job ?? c.job;
    const status = !s.wait ? 'queued' : wait?.status === 'completed' ? 'completed' : 'unfinished';
    report.jobIds.push(c.job.id);
    report.counts.queued! += c.count;
    report.jobs.push({ id: c.job.id, lines: lineRange(records, picked, c.offset, c.count), status, total: job.total, processed: job.processed, failed: job.failed, replayed: c.call.replayed });
  }
  for (const r of results.contacts) {
    const i = picked[r.index];
    const error = r.error ? errorFields(ctx, r.error) : undefined;
    rows.push({ index: i, line: records[i].line, recipient: maskRecipient(recipientOf(records[i].value) ?? ''), status: r.status, key: r.idempotencyKey, ...(error ? { error } : {}) });
    if (r.status === 'failed' && error && r.jobId) {
      log.annotate(rowLevel(ctx), `Contact not imported: ${error.code}: ${error.message}${error.param ? ` (field: ${error.param})` : ''}`, { file: file.path, startLine: records[i].line });
    }
  }
  for (const re of results.unplacedRowErrors) log.annotate(rowLevel(ctx), `Contact row failed in job ${re.jobId} (it names no row of its job): ${re.code ?? 'row_error'}: ${re.message ?? ''}`);
  report.counts.failed += results.unplacedRowErrors.length;
  report.notes.push(`Contacts: ${log.mask(describeImportResults(results, ACTION_WAIT_WORDS))}.`);
  report.jobStatus = outcome.error ? 'failed' : !s.wait ? 'queued' : results.unfinishedJobIds.length ? 'unfinished' : 'completed';
  if (outcome.error?.outcomeUnknown || results.counts.unknown) report.jobStatus = 'unknown';
  const replays = report.jobs.filter((j) => j.replayed).length;
  if (replays) report.notes.push(`${replays} job(s) replayed: this run had already imported the same contacts under the same key (a re-run), so nothing was imported twice.`);
  if (!outcome.error?.outcomeUnknown) callFailure(ctx, outcome.error);
  if (s.wait && results.unfinishedJobIds.length) {
    report.failures.push(`The import did not finish within wait-timeout (${s.waitTimeoutMs / 1000} s); ${stillRunning(results.unfinishedJobIds, ACTION_WAIT_WORDS, true)}.`);
  }
  finish(ctx, file.path, rows);
}

function finish(ctx: ModeContext, path: string, rows: Row[]): void {
  const { report } = ctx;
  rows.sort((a, b) => a.index - b.index);
  for (const row of rows) addRow(report, row);
  const count = (status: string) => report.rowCounts[status] ?? 0;
  report.counts.imported = count('imported');
  report.counts.failed += count('failed');
  report.counts.unknown = count('unknown');
  report.counts.notAttempted = count('not_attempted');
  if (report.counts.failed) report.failures.push(`${report.counts.failed} contact row(s) failed to import (annotated at their lines in ${path}).`);
  if (report.counts.unknown) report.failures.push(`${report.counts.unknown} contact row(s) unknown: the import may or may not have been accepted. Send again with the same key (re-run this job): the service replays or completes it, never twice.`);
}
