/**
 * What every mode shares: its context, reading a data file into records (annotating where it is bad),
 * rendering input templates, keys, and how a refused row and a job's progress are shown.
 */
import { actionChunkKeys, ApiError, chunkIdempotencyKey, describeError, isJobFinished } from '../../../src/index.ts';
import type { ChunkEvent, ChunkKeyFunction, Job, MessagingClient } from '../../../src/index.ts';
import type { RunInfo } from '../context.ts';
import { DataFileError, detectFormat, parseRecords } from '../data-files.ts';
import type { DataFormat, DataRecord } from '../data-files.ts';
import { decodeStream } from '../decode-stream.ts';
import { checkDocumentSize } from '../document-limit.ts';
import { streamRecords } from '../record-stream.ts';
import { InputError } from '../inputs.ts';
import type { Settings } from '../inputs.ts';
import type { Log } from '../log.ts';
import type { Report, Row } from '../report.ts';
import { render, TemplateError } from '../template.ts';
import type { ReadRoots } from '../read-paths.ts';
import { decodeText, EncodingError, openWorkspaceFile, readWorkspaceFile } from '../workspace-files.ts';
import type { StreamedFile, WorkspaceFile } from '../workspace-files.ts';
import { ACTION_WORDS } from '../surface-words.ts';

export interface ModeContext {
  settings: Settings;
  info: RunInfo;
  scope: Record<string, unknown>;
  workspace: string;
  env: NodeJS.ProcessEnv;
  report: Report;
  log: Log;
  client(): MessagingClient;
  /** Where this run may read files (read-paths.ts), worked out at the first read. */
  readRoots(): ReadRoots;
  /** One progress line per chunk call, given the word for its items. */
  onChunk(what: string): (event: ChunkEvent) => void;
}

/** The level of a refused row's annotation: it fails the step only when fail-on-error is on. */
export function rowLevel(ctx: ModeContext): 'error' | 'warning' {
  return ctx.settings.failOnError ? 'error' : 'warning';
}

/** One line per poll of an import job. */
export function progressLogger(ctx: ModeContext) {
  return (job: Job): void => ctx.log.info(`Job ${job.id}: ${job.processed}/${job.total} processed, ${job.failed} failed${isJobFinished(job) ? ' — finished' : ''}.`);
}

/** Reads a file for `input` where the run may read; an encoding problem is annotated at its line. */
export function readFile(ctx: ModeContext, input: string, path: string): WorkspaceFile {
  try {
    return readWorkspaceFile(ctx.readRoots(), ctx.workspace, input, path);
  } catch (error) {
    if (!(error instanceof EncodingError)) throw error;
    ctx.log.annotate('error', error.message, { title: `Cannot read ${input}`, file: error.path, startLine: error.line });
    throw new InputError(input, error.message);
  }
}

/** A data file read record by record, as many times as needed (each pass opens it anew). */
export interface RecordSource {
  file: StreamedFile;
  format: DataFormat;
  /** The records in file order; `tap` sees the raw bytes as they are read (e.g. a hash). Bad data ends it with an InputError. */
  records(tap?: (bytes: Uint8Array) => void): AsyncGenerator<DataRecord>;
}

function readError(ctx: ModeContext, input: string, path: string, error: unknown): unknown {
  if (error instanceof EncodingError) {
    ctx.log.annotate('error', error.message, { title: `Cannot read ${input}`, file: error.path, startLine: error.line });
    return new InputError(input, error.message);
  }
  if (!(error instanceof DataFileError)) return error;
  if (error.line) ctx.log.annotate('error', error.message, { title: `Cannot read ${input}`, file: path, startLine: error.line });
  return new InputError(input, `${path}${error.line ? `:${error.line}` : ''}: ${ctx.log.mask(error.message)}`);
}

async function* tapped(bytes: AsyncIterable<Uint8Array>, tap?: (bytes: Uint8Array) => void): AsyncGenerator<Uint8Array> {
  for await (const b of bytes) {
    tap?.(b);
    yield b;
  }
}

/**
 * Opens a data file for `input` where the run may read. CSV, JSON Lines and text are streamed; a JSON
 * or YAML document is refused past its size limit (document-limit.ts) before anything is sent.
 */
export function openRecords(ctx: ModeContext, input: string, path: string, keys: string[], what: string): RecordSource {
  const file = openWorkspaceFile(ctx.readRoots(), ctx.workspace, input, path);
  let format: DataFormat;
  try {
    format = detectFormat(file.path, ctx.settings.fileFormat);
  } catch (error) {
    throw readError(ctx, input, file.path, error);
  }
  if (format === 'json' || format === 'yaml') checkDocumentSize(ctx.env, input, file.path, file.size, format);
  async function* records(tap?: (bytes: Uint8Array) => void): AsyncGenerator<DataRecord> {
    try {
      if (format === 'csv' || format === 'jsonl' || format === 'text') {
        yield* streamRecords(decodeStream(tapped(file.bytes(), tap), file.path), format, what);
        return;
      }
      const parts: Uint8Array[] = [];
      for await (const b of tapped(file.bytes(), tap)) parts.push(b);
      yield* await parseRecords(decodeText(Buffer.concat(parts), file.path), format, keys, what);
    } catch (error) {
      throw readError(ctx, input, file.path, error);
    }
  }
  return { file, format, records };
}

/** All the records at once, for files that are lists to look things up in (recipients, import-status). */
export async function readRecords(ctx: ModeContext, input: string, path: string, keys: string[], what: string): Promise<{ file: StreamedFile; records: DataRecord[] }> {
  const source = openRecords(ctx, input, path, keys, what);
  const records: DataRecord[] = [];
  for await (const r of source.records()) records.push(r);
  return { file: source.file, records };
}

export function renderInput(ctx: ModeContext, input: string, template: string, scope = ctx.scope): string {
  try {
    return render(template, scope, `input "${input}"`);
  } catch (error) {
    if (error instanceof TemplateError) throw new InputError(input, error.message.replace(/^input "[^"]+": /, ''));
    throw error;
  }
}

export function bodyTemplate(ctx: ModeContext): { input: string; template: string } {
  const s = ctx.settings;
  if (s.body && s.bodyFile) throw new InputError('body-file', 'set either body or body-file, not both.');
  if (s.bodyFile) return { input: 'body-file', template: readFile(ctx, 'body-file', s.bodyFile).text };
  return { input: 'body', template: s.body };
}

export function text(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  return typeof value === 'string' ? value : undefined;
}

/** 401/403 are not delivery failures: nothing can work until the key or account is fixed. */
export function isFatal(error: ApiError): boolean {
  return error.status === 401 || error.status === 403;
}

export function errorFields(ctx: ModeContext, error: { code?: string; message?: string; param?: string }, fallback = 'error'): NonNullable<Row['error']> {
  return { code: error.code ?? fallback, message: ctx.log.mask(error.message ?? ''), ...(error.param ? { param: ctx.log.mask(error.param) } : {}) };
}

/** A whole-call error: fatal when it is about the key or account, else a delivery failure. */
export function callFailure(ctx: ModeContext, error: ApiError | undefined): void {
  if (!error) return;
  const line = ctx.log.mask(describeError(error, { words: ACTION_WORDS }));
  if (isFatal(error)) ctx.report.fatal = line;
  else ctx.report.failures.push(line);
}

/**
 * The keys of a write: the `idempotency-key` input (chunks add `:chunk-<n>`), else src's action keys —
 * repository, run id, job, step, mode, chunk and content, never the attempt number — so "Re-run jobs"
 * replays and a new run applies. `first` is the first chunk's key, for the output and the summary:
 * `items` need only reach past the first chunk (a streamed file gives that chunk), `total` is how many
 * items the whole write has.
 */
export function writeKeys(ctx: ModeContext, context: unknown, items: readonly unknown[], chunkSize: number, total = items.length): { keys: string | ChunkKeyFunction; first: string } {
  const chunks = Math.max(1, Math.ceil(total / chunkSize));
  const given = ctx.settings.idempotencyKey;
  if (given) return { keys: given, first: chunkIdempotencyKey(given, 0, chunks) };
  const { repository, runId, job, step } = ctx.info;
  const keys = actionChunkKeys({ repository, runId, job, step, operation: ctx.settings.mode, context });
  return { keys, first: keys({ chunk: 0, offset: 0, items: items.slice(0, chunkSize), chunks }) };
}

export const PREVIEW_CHARS = 400;
