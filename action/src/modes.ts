/**
 * The four modes. Each validates and renders everything first (so a bad input sends nothing), then —
 * unless dry-run — calls the shared client, which owns chunking, retries, pacing and polling.
 */
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ApiError, chunkIdempotencyKey, deriveIdempotencyKey, describeError, isJobFinished, MAX_IMPORT_CONTACTS, readJobRowError } from '../../src/index.ts';
import type { BulkOutcome, ChunkEvent, ContactInput, JobRowErrorFields, ImportOutcome, ImportRowError, ImportWaitOutcome, Job, MessageElement, MessagingClient, SendMessageInput } from '../../src/index.ts';
import { DataFileError, detectFormat, parseRecords } from './data-files.ts';
import type { DataRecord } from './data-files.ts';
import { InputError } from './inputs.ts';
import type { Settings } from './inputs.ts';
import { maskRecipient, maskText } from './mask.ts';
import type { Report, Row } from './report.ts';
import { render, TemplateError } from './template.ts';
import type { RunInfo } from './context.ts';
import type { CoreLike } from './types.ts';

export interface ModeContext {
  core: CoreLike;
  settings: Settings;
  info: RunInfo;
  scope: Record<string, unknown>;
  workspace: string;
  report: Report;
  client(): MessagingClient;
  /** One progress line per chunk call, given the word for its items. */
  onChunk(what: string): (event: ChunkEvent) => void;
  /** Values masked wherever they appear in text (the recipients of this run). */
  known: Set<string>;
}

const MAX_ANNOTATIONS = 20;
const PREVIEW_CHARS = 400;

// ------------------------------------------------------------------ helpers

interface LoadedFile {
  /** As shown to users and in annotations: relative to the workspace. */
  path: string;
  text: string;
}

function readWorkspaceFile(ctx: ModeContext, input: string, path: string): LoadedFile {
  const full = isAbsolute(path) ? path : resolve(ctx.workspace, path);
  try {
    const text = readFileSync(full, 'utf8');
    const rel = relative(ctx.workspace, full);
    return { path: rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel.split('\\').join('/') : full, text };
  } catch (error) {
    throw new InputError(input, `cannot read "${path}" (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}); paths are relative to the workspace (${ctx.workspace}) — did the job check out the repository?`);
  }
}

async function readRecords(ctx: ModeContext, input: string, path: string, keys: string[], what: string): Promise<{ file: LoadedFile; records: DataRecord[] }> {
  const file = readWorkspaceFile(ctx, input, path);
  try {
    const format = detectFormat(file.path, ctx.settings.fileFormat);
    return { file, records: await parseRecords(file.text, format, keys, what) };
  } catch (error) {
    if (error instanceof DataFileError) {
      if (error.line) ctx.core.error(maskText(error.message), { title: `Cannot read ${input}`, file: file.path, startLine: error.line });
      throw new InputError(input, `${file.path}${error.line ? `:${error.line}` : ''}: ${maskText(error.message)}`);
    }
    throw error;
  }
}

function renderInput(ctx: ModeContext, input: string, template: string, scope = ctx.scope): string {
  try {
    return render(template, scope, `input "${input}"`);
  } catch (error) {
    if (error instanceof TemplateError) throw new InputError(input, error.message.replace(/^input "[^"]+": /, ''));
    throw error;
  }
}

function bodyTemplate(ctx: ModeContext): { input: string; template: string } {
  const s = ctx.settings;
  if (s.body && s.bodyFile) throw new InputError('body-file', 'set either body or body-file, not both.');
  if (s.bodyFile) return { input: 'body-file', template: readWorkspaceFile(ctx, 'body-file', s.bodyFile).text };
  return { input: 'body', template: s.body };
}

function text(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : undefined;
}

function annotate(ctx: ModeContext, count: { n: number }, message: string, file: string | undefined, line: number | undefined, asError: boolean): void {
  count.n += 1;
  if (count.n > MAX_ANNOTATIONS) return;
  const props = file ? { file, startLine: line, title: 'Relay messaging' } : { title: 'Relay messaging' };
  if (asError) ctx.core.error(maskText(message, ctx.known), props);
  else ctx.core.warning(maskText(message, ctx.known), props);
}

function mostAnnotations(ctx: ModeContext, count: { n: number }): void {
  if (count.n > MAX_ANNOTATIONS) ctx.core.info(`${count.n - MAX_ANNOTATIONS} more problems are not annotated; see the job summary and the results output.`);
}

/** 401/403 are not delivery failures: nothing can work until the key or account is fixed. */
function isFatal(error: ApiError): boolean {
  return error.status === 401 || error.status === 403;
}

function errorFields(error: ApiError, known: Set<string>): Row['error'] {
  return { code: error.code, message: maskText(error.message, known), param: error.param };
}

/** Repository, run id, job and step — never the attempt number, so "Re-run jobs" replays. */
function runParts(ctx: ModeContext): string[] {
  const { repository, runId, job, step } = ctx.info;
  return [repository, runId, job, step];
}

function applyBulk(ctx: ModeContext, outcome: BulkOutcome, describe: (index: number) => Partial<Row>): void {
  const report = ctx.report;
  let replayed = 0;
  for (const r of outcome.results) {
    const base = { index: r.index, ...describe(r.index) };
    if (r.status === 'sent') {
      if (r.call.replayed) replayed += 1;
      report.rows.push({ ...base, status: r.call.replayed ? 'replayed' : 'sent', id: r.id });
      report.ids.push(r.id);
    } else {
      report.rows.push({ ...base, status: r.status, error: errorFields(r.error, ctx.known) });
    }
  }
  report.sent = outcome.sent;
  report.failed = outcome.failed;
  report.notAttempted = outcome.notAttempted;
  if (replayed) report.notes.push(`${replayed} message(s) had already been sent by an earlier attempt of this run: the service replayed its answer and nothing was sent twice.`);
  if (outcome.error) {
    const line = describeError(outcome.error);
    if (isFatal(outcome.error)) report.fatal = maskText(line, ctx.known);
    else report.failures.push(maskText(line, ctx.known));
  }
  const elementFailures = outcome.results.filter((r) => r.status === 'failed' && !r.wholeCall).length;
  if (elementFailures) report.failures.push(`${elementFailures} message(s) were refused by the service (see the summary for each error code).`);
  if (outcome.notAttempted && !outcome.error) report.failures.push(`${outcome.notAttempted} message(s) were not attempted.`);
}

// ------------------------------------------------------------------ send

async function recipientsFromFile(ctx: ModeContext, path: string, channel: string): Promise<string[]> {
  const { file, records } = await readRecords(ctx, 'to-file', path, ['recipients', 'contacts', 'to'], 'recipient');
  const found: string[] = [];
  let missing = 0;
  for (const r of records) {
    const v = r.value;
    const value = text(v.value) ?? text(v.to) ?? text(v[channel]);
    if (value) found.push(value.trim());
    else missing += 1;
  }
  if (missing) ctx.core.info(`${file.path}: ${missing} row(s) have no "to" or "${channel}" value and are skipped.`);
  return found;
}

export async function sendMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report } = ctx;
  if (!s.channel) throw new InputError('channel', 'is required in send mode (e.g. whatsapp or email).');
  const all = [...s.to, ...(s.toFile ? await recipientsFromFile(ctx, s.toFile, s.channel) : [])];
  const to = [...new Set(all)];
  if (to.length === 0) throw new InputError('to', 'no recipients: give them in "to" (one per line or separated by commas) or in a file named by "to-file".');
  for (const r of to) ctx.known.add(r);
  if (all.length !== to.length) ctx.core.info(`${all.length - to.length} duplicate recipient(s) left out.`);
  const { input, template } = bodyTemplate(ctx);
  if (!template.trim()) throw new InputError('body', 'is required in send mode (or body-file).');
  const body = renderInput(ctx, input, template);
  const subject = s.subject ? renderInput(ctx, 'subject', s.subject) : undefined;
  const message: SendMessageInput = { channel: s.channel, to, body, ...(subject !== undefined ? { subject } : {}) };

  report.idempotencyKey = s.idempotencyKey || deriveIdempotencyKey('gha', runParts(ctx), { mode: 'send', message });
  report.details.push(`**Channel:** ${s.channel} · **Recipients:** ${to.length}`);
  if (subject !== undefined) report.details.push(`**Subject:** ${maskText(subject, ctx.known)}`);
  report.details.push(`**Body:** ${maskText(body.length > PREVIEW_CHARS ? `${body.slice(0, PREVIEW_CHARS)}…` : body, ctx.known).replace(/\r?\n/g, ' ⏎ ')}`);

  if (s.dryRun) {
    to.forEach((r, index) => report.rows.push({ index, recipient: maskRecipient(r), status: 'dry-run' }));
    return;
  }
  ctx.core.info(`Sending one ${s.channel} message to ${to.length} recipient(s)…`);
  const outcome = await ctx.client().messages.send(message, { idempotencyKey: report.idempotencyKey, onChunk: ctx.onChunk('recipients') });
  applyBulk(ctx, outcome, (i) => ({ recipient: maskRecipient(to[i]) }));
}

// ------------------------------------------------------------------ batch

const MESSAGE_FIELDS = new Set(['channel', 'to', 'subject', 'body']);

export async function batchMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report } = ctx;
  if (!s.file) throw new InputError('file', 'is required in batch mode: a JSON, YAML or CSV file of messages.');
  const { file, records } = await readRecords(ctx, 'file', s.file, ['messages'], 'message');
  if (records.length === 0) throw new InputError('file', `${file.path} holds no messages.`);
  report.file = file.path;
  const defaults = { body: bodyTemplate(ctx).template, subject: s.subject };
  const messages: MessageElement[] = [];
  const problems: { line: number; message: string }[] = [];
  for (const { line, value: row } of records) {
    const channel = text(row.channel) ?? s.channel;
    const to = row.to;
    if (typeof to === 'string' && to.trim()) ctx.known.add(to.trim());
    const missing = [!channel && 'channel', !(typeof to === 'string' && to.trim()) && 'to'].filter(Boolean);
    const bodyT = text(row.body) ?? defaults.body;
    const subjectT = text(row.subject) ?? (s.subject || undefined);
    if (!bodyT?.trim()) missing.push('body');
    if (typeof to === 'number') {
      problems.push({ line, message: `"to" is a number: write it as text (quoted), in international format with its "+"` });
      continue;
    }
    if (missing.length) {
      problems.push({ line, message: `missing ${missing.join(', ')}${missing.includes('channel') ? ' (or set the channel input)' : ''}${missing.includes('body') ? ' (or set the body input)' : ''}` });
      continue;
    }
    const scope = { ...ctx.scope, row };
    try {
      const body = render(bodyT, scope, 'body');
      const subject = subjectT === undefined ? undefined : render(subjectT, scope, 'subject');
      messages.push({ channel: channel!, to: (to as string).trim(), body, ...(subject !== undefined ? { subject } : {}) });
    } catch (error) {
      if (!(error instanceof TemplateError)) throw error;
      problems.push({ line, message: error.message });
    }
  }
  if (problems.length) {
    const count = { n: 0 };
    for (const p of problems) annotate(ctx, count, `Invalid message: ${p.message}`, file.path, p.line, true);
    mostAnnotations(ctx, count);
    const first = problems[0];
    throw new InputError('file', `${problems.length} of ${records.length} message(s) in ${file.path} are invalid (first, line ${first.line}: ${maskText(first.message, ctx.known)}); nothing was sent.`);
  }
  const extra = [...new Set(records.flatMap((r) => Object.keys(r.value).filter((k) => !MESSAGE_FIELDS.has(k))))];
  if (extra.length) ctx.core.info(`Fields used only as template variables (row.*), not sent: ${extra.join(', ')}.`);

  report.idempotencyKey = s.idempotencyKey || deriveIdempotencyKey('gha', runParts(ctx), { mode: 'batch', messages });
  report.details.push(`**File:** \`${file.path}\` · **Messages:** ${messages.length}`);
  const line = (i: number) => records[i].line;
  if (s.dryRun) {
    messages.forEach((m, index) => report.rows.push({ index, line: line(index), recipient: maskRecipient(m.to), status: 'dry-run' }));
    return;
  }
  ctx.core.info(`Sending ${messages.length} message(s) from ${file.path}…`);
  const outcome = await ctx.client().messages.sendBatch(messages, { idempotencyKey: report.idempotencyKey, onChunk: ctx.onChunk('messages') });
  applyBulk(ctx, outcome, (i) => ({ line: line(i), recipient: maskRecipient(messages[i].to) }));
  const count = { n: 0 };
  for (const r of outcome.results) {
    if (r.status === 'failed' && !r.wholeCall) annotate(ctx, count, `Message refused: ${describeError(r.error)}`, file.path, line(r.index), s.failOnError);
  }
  mostAnnotations(ctx, count);
}

// ------------------------------------------------------------------ sync-contacts and job

/** A job row error for the report: the fields the shared layer could read, its message masked. */
function rowErrorFields(row: JobRowErrorFields, element: unknown, known: Set<string>): NonNullable<Row['error']> {
  return { code: row.code ?? 'row_error', message: maskText(row.message ?? JSON.stringify(element), known), param: row.param };
}

function progressLogger(ctx: ModeContext) {
  return (job: Job): void => {
    ctx.core.info(`Job ${job.id}: ${job.processed}/${job.total} processed, ${job.failed} failed${isJobFinished(job) ? ' — finished' : ''}.`);
  };
}

function lineRange(records: DataRecord[], offset: number, count: number): string | undefined {
  const first = records[offset]?.line;
  const last = records[offset + count - 1]?.line;
  return first === undefined ? undefined : first === last ? String(first) : `${first}–${last}`;
}

export async function syncContactsMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report } = ctx;
  if (!s.file) throw new InputError('file', 'is required in sync-contacts mode: a CSV, JSON or YAML file of contacts.');
  const { file, records } = await readRecords(ctx, 'file', s.file, ['contacts'], 'contact');
  if (records.length === 0) throw new InputError('file', `${file.path} holds no contacts.`);
  report.file = file.path;
  const contacts: ContactInput[] = records.map((r) => r.value);
  for (const c of contacts) for (const f of ['whatsapp', 'email']) if (typeof c[f] === 'string') ctx.known.add(c[f] as string);
  const chunks = Math.ceil(contacts.length / MAX_IMPORT_CONTACTS);
  // Keyed by the content (and the repository and path), not the run: an unchanged file — or an
  // unchanged chunk of it — replays the earlier import instead of importing again.
  const keyOf = (items: readonly unknown[], chunk: number): string =>
    s.idempotencyKey ? chunkIdempotencyKey(s.idempotencyKey, chunk, chunks) : deriveIdempotencyKey('gha-contacts', [ctx.info.repository, file.path], items);
  report.idempotencyKey = s.idempotencyKey || keyOf(contacts.slice(0, MAX_IMPORT_CONTACTS), 0);
  report.queued = 0;
  report.details.push(`**File:** \`${file.path}\` · **Contacts:** ${contacts.length} · **Jobs:** ${chunks} (≤ ${MAX_IMPORT_CONTACTS} contacts each)`);

  if (s.dryRun) {
    for (let c = 0; c < chunks; c++) {
      const offset = c * MAX_IMPORT_CONTACTS;
      const count = Math.min(MAX_IMPORT_CONTACTS, contacts.length - offset);
      report.jobs.push({ id: `(job ${c + 1} of ${chunks})`, lines: lineRange(records, offset, count), status: 'dry-run', total: count });
    }
    report.jobStatus = '';
    return;
  }
  const idempotencyKey = (c: { chunk: number; items: readonly unknown[] }): string => keyOf(c.items, c.chunk);
  const onChunk = ctx.onChunk('contacts');
  ctx.core.info(`Importing ${contacts.length} contact(s) from ${file.path} in ${chunks} job(s)${s.wait ? `, waiting up to ${s.waitTimeoutMs / 1000} s` : ''}…`);
  const client = ctx.client();
  const outcome: ImportOutcome & { waits?: ImportWaitOutcome['waits']; rowErrors: ImportRowError[] } = s.wait
    ? await client.contacts.importAndWait(contacts, { idempotencyKey, onChunk, timeoutMs: s.waitTimeoutMs, onProgress: progressLogger(ctx) })
    : { ...(await client.contacts.import(contacts, { idempotencyKey, onChunk })), rowErrors: [] };

  const status = new Array<string>(contacts.length).fill('queued');
  const errors = new Array<Row['error'] | undefined>(contacts.length);
  let allCompleted = true;
  for (const c of outcome.chunks) {
    if (c.status === 'queued') {
      report.queued += c.count;
      report.jobIds.push(c.job.id);
      const wait = outcome.waits?.find((w) => w.chunk === c.chunk)?.result;
      const job = wait?.job ?? c.job;
      const done = wait?.status === 'completed';
      if (!done) allCompleted = false;
      report.jobs.push({ id: job.id, lines: lineRange(records, c.offset, c.count), status: !s.wait ? 'queued' : done ? 'completed' : 'unfinished', total: job.total, processed: job.processed, failed: job.failed, replayed: c.call.replayed });
      for (let i = c.offset; i < c.offset + c.count; i++) status[i] = !s.wait ? 'queued' : done ? 'imported' : 'unfinished';
    } else {
      allCompleted = false;
      for (let i = c.offset; i < c.offset + c.count; i++) {
        status[i] = c.status;
        errors[i] = errorFields(c.error, ctx.known);
      }
    }
  }
  const count = { n: 0 };
  let unmapped = 0;
  for (const re of outcome.rowErrors) {
    const fields = rowErrorFields(re, re.error, ctx.known);
    if (re.index === undefined || re.index < 0 || re.index >= contacts.length) {
      unmapped += 1;
      annotate(ctx, count, `Contact row failed in job ${re.jobId}: ${fields.code}: ${fields.message}`, undefined, undefined, s.failOnError);
      continue;
    }
    status[re.index] = 'failed';
    errors[re.index] = fields;
    annotate(ctx, count, `Contact not imported: ${fields.code}: ${fields.message}${fields.param ? ` (field: ${fields.param})` : ''}`, file.path, records[re.index].line, s.failOnError);
  }
  mostAnnotations(ctx, count);
  contacts.forEach((c, index) => {
    const recipient = typeof c.whatsapp === 'string' ? maskRecipient(c.whatsapp) : typeof c.email === 'string' ? maskRecipient(c.email) : undefined;
    report.rows.push({ index, line: records[index].line, recipient, status: status[index], error: errors[index] });
  });
  report.sent = status.filter((x) => x === 'imported').length;
  report.failed = status.filter((x) => x === 'failed').length + unmapped;
  report.notAttempted = status.filter((x) => x === 'not_attempted').length;
  report.jobStatus = outcome.error ? 'failed' : !s.wait ? 'queued' : allCompleted ? 'completed' : 'unfinished';
  const replays = outcome.chunks.filter((c) => c.status === 'queued' && c.call.replayed).length;
  if (replays) report.notes.push(`${replays} job(s) replayed: the same contacts were already imported under the same key (unchanged content), so nothing was imported twice.`);
  if (outcome.error) {
    const line = describeError(outcome.error);
    if (isFatal(outcome.error)) report.fatal = maskText(line, ctx.known);
    else report.failures.push(maskText(line, ctx.known));
  }
  if (report.failed) report.failures.push(`${report.failed} contact row(s) failed to import (annotated at their lines in ${file.path}).`);
  if (s.wait && report.jobStatus === 'unfinished') {
    report.failures.push(`The import did not finish within wait-timeout (${s.waitTimeoutMs / 1000} s); read it later with mode: job and job-id: ${report.jobIds.join(', ')}.`);
  }
}

export async function jobMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report } = ctx;
  if (!s.jobId) throw new InputError('job-id', 'is required in job mode.');
  if (!/^job_\S+$/.test(s.jobId)) throw new InputError('job-id', `must be a job id (job_…), got "${s.jobId}".`);
  const loaded = s.file ? await readRecords(ctx, 'file', s.file, ['contacts'], 'contact') : undefined;
  if (loaded) report.file = loaded.file.path;
  report.jobIds.push(s.jobId);
  report.details.push(`**Job:** \`${s.jobId}\`${s.wait ? ` · waiting up to ${s.waitTimeoutMs / 1000} s` : ''}`);
  if (s.dryRun) return;
  let job: Job;
  let finished: boolean;
  try {
    if (s.wait) {
      const result = await ctx.client().jobs.wait(s.jobId, { timeoutMs: s.waitTimeoutMs, onProgress: progressLogger(ctx) });
      if (!result.job) throw new ApiError({ status: 0, type: 'aborted', code: 'aborted', message: 'The wait ended before the job could be read.' });
      job = result.job;
      finished = result.status === 'completed';
    } else {
      job = await ctx.client().jobs.get(s.jobId);
      finished = isJobFinished(job);
    }
  } catch (error) {
    if (error instanceof ApiError && error.code === 'resource_not_found') throw new InputError('job-id', describeError(error));
    throw error;
  }
  report.jobs.push({ id: job.id, status: finished ? 'completed' : s.wait ? 'unfinished' : 'queued', total: job.total, processed: job.processed, failed: job.failed });
  report.jobStatus = finished ? 'completed' : s.wait ? 'unfinished' : 'queued';
  report.sent = Math.max(0, (job.processed ?? 0) - (job.failed ?? 0));
  report.failed = job.failed ?? 0;
  const count = { n: 0 };
  (Array.isArray(job.errors) ? job.errors : []).forEach((raw, k) => {
    const read = readJobRowError(raw);
    const fields = rowErrorFields(read, raw, ctx.known);
    const index = read.index;
    const line = index !== undefined ? loaded?.records[index]?.line : undefined;
    report.rows.push({ index: index ?? k, line, status: 'failed', error: fields });
    annotate(ctx, count, `Contact not imported: ${fields.code}: ${fields.message}${fields.param ? ` (field: ${fields.param})` : ''}`, line ? loaded?.file.path : undefined, line, s.failOnError);
  });
  mostAnnotations(ctx, count);
  if (report.failed) report.failures.push(`${report.failed} contact row(s) of ${job.id} failed.`);
  if (s.wait && !finished) report.failures.push(`Job ${job.id} did not finish within wait-timeout (${s.waitTimeoutMs / 1000} s).`);
}
