/**
 * Incremental sync: the contacts file as it was at `github.event.before`, streamed from git into an index
 * of content digests (content-index.ts), never its rows. A second read finds the rows edited or removed since.
 * When there is no previous version to compare with, the caller syncs the whole file and the log says why.
 */
import { DataFileError, parseRecords } from '../data-files.ts';
import type { DataFormat, DataRecord } from '../data-files.ts';
import { decodeStream } from '../decode-stream.ts';
import { ContentIndex } from '../content-index.ts';
import { previousVersion } from '../incremental.ts';
import { streamRecords } from '../record-stream.ts';
import { decodeText, EncodingError } from '../workspace-files.ts';
import type { StreamedFile } from '../workspace-files.ts';
import type { ModeContext } from './shared.ts';

export interface PreviousRows {
  /** The previous commit. */
  before: string;
  index: ContentIndex;
  /** The previous version's records again, in order. */
  records(): AsyncGenerator<DataRecord>;
}

async function* recordsOf(bytes: () => AsyncIterable<Uint8Array>, path: string, format: DataFormat): AsyncGenerator<DataRecord> {
  if (format === 'csv' || format === 'jsonl' || format === 'text') {
    yield* streamRecords(decodeStream(bytes(), path), format, 'contact');
    return;
  }
  // JSON and YAML are whole documents; the current file passed the size limit, its history is read alike.
  const parts: Uint8Array[] = [];
  for await (const b of bytes()) parts.push(b);
  yield* await parseRecords(decodeText(Buffer.concat(parts), path), format, ['contacts'], 'contact');
}

/** The index of the previous version, or undefined for a full sync (logged). */
export async function previousRows(ctx: ModeContext, file: StreamedFile, format: DataFormat): Promise<PreviousRows | undefined> {
  const path = file.path;
  const previous = await previousVersion(ctx.readRoots().workspace, ctx.info.eventName, (ctx.scope.event ?? {}) as Record<string, unknown>, file.repoPath);
  if (previous.status === 'not-push') return undefined;
  if (previous.status === 'not-followed') {
    ctx.log.info(`Full sync: ${previous.reason}.`);
    return undefined;
  }
  if (previous.status === 'absent-commit') {
    ctx.log.info(`Full sync: ${previous.reason}. To sync only the changed rows, check out with \`fetch-depth: 2\` (actions/checkout).`);
    return undefined;
  }
  if (previous.status === 'absent-file') {
    ctx.log.info(`Full sync: ${path} is new in this push.`);
    return undefined;
  }
  const index = new ContentIndex();
  try {
    for await (const r of recordsOf(previous.bytes, path, format)) index.add(r.value);
  } catch (error) {
    // The previous version is history: if it can't be read, the current file is still the truth.
    if (!(error instanceof EncodingError || error instanceof DataFileError)) throw error;
    ctx.log.info(`Full sync: the previous version of ${path} (${previous.before.slice(0, 7)}) could not be read (${error.message}).`);
    return undefined;
  }
  return { before: previous.before, index, records: () => recordsOf(previous.bytes, path, format) };
}
