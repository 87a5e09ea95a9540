/**
 * Pass 2 of a real sync-contacts run: the rows to send, converted, imported in groups as they are read.
 * Chunks are numbered and keyed as one import of the whole list would have been (the same keys, so a
 * re-run replays); after a call fails as a whole, the rest is not attempted, as in the client. Returns
 * each chunk with its line range: memory holds a group of contacts and one entry per job.
 */
import { chunkIdempotencyKey, MAX_IMPORT_CONTACTS } from '../../../src/index.ts';
import type { ApiError, ChunkKeyFunction, ChunkKeyInput, ContactInput, ImportChunk } from '../../../src/index.ts';
import { notAttemptedError } from '../../../src/resources/chunk-errors.ts';
import { convertAttributes } from '../attributes.ts';
import type { AttributeTypes } from '../attributes.ts';
import { writeKeys } from './shared.ts';
import type { ModeContext } from './shared.ts';
import type { IndexedRecord } from './verified-rows.ts';

/** Contacts handed to the client at once: two calls, as many as it runs in parallel. */
const GROUP = MAX_IMPORT_CONTACTS * 2;

export interface ImportedChunks {
  chunks: { chunk: ImportChunk; lines?: string }[];
  error?: ApiError;
  contacts: number;
  /** The first chunk's key ('' when nothing was imported). */
  first: string;
}

const range = (lines: number[], from: number, count: number): string | undefined => {
  const a = lines[from];
  const b = lines[from + count - 1];
  return a === undefined ? undefined : a === b ? String(a) : `${a}–${b}`;
};

export async function importContacts(ctx: ModeContext, path: string, rows: AsyncIterable<IndexedRecord>, types: AttributeTypes, recipientOf: (c: Record<string, unknown>) => string | undefined): Promise<ImportedChunks> {
  const out: ImportedChunks = { chunks: [], contacts: 0, first: '' };
  const client = ctx.client();
  const onChunk = ctx.onChunk('contacts');
  let keys: string | ChunkKeyFunction | undefined;
  let chunkBase = 0;
  let group: ContactInput[] = [];
  let lines: number[] = [];
  const flush = async (final: boolean): Promise<void> => {
    if (!group.length) return;
    const offset = out.contacts;
    // The whole list fits one call: keyed exactly as before streaming (the client numbers its chunks).
    const whole = final && offset === 0 && group.length <= MAX_IMPORT_CONTACTS;
    // At the first call, a group that is not the last means more than one chunk in all.
    if (!keys) ({ keys, first: out.first } = writeKeys(ctx, { file: path }, group, MAX_IMPORT_CONTACTS, final && offset === 0 ? group.length : GROUP + 1));
    const k = keys;
    const keyOf = (c: ChunkKeyInput): string => (typeof k === 'string' ? chunkIdempotencyKey(k, chunkBase + c.chunk, 2) : k({ ...c, chunk: chunkBase + c.chunk, offset: offset + c.offset }));
    let chunks: ImportChunk[];
    if (out.error) {
      const error = notAttemptedError(out.error);
      chunks = [];
      for (let at = 0, n = 0; at < group.length; at += MAX_IMPORT_CONTACTS, n++) {
        const items = group.slice(at, at + MAX_IMPORT_CONTACTS);
        const idempotencyKey = keyOf({ chunk: n, offset: at, items, chunks: 2 });
        chunks.push({ chunk: n, offset: at, count: items.length, status: 'not_attempted', error, call: { chunk: n, idempotencyKey, replayed: false } });
      }
    } else {
      const forget = ctx.log.remember(group.map((c) => recipientOf(c)).filter((r): r is string => r !== undefined));
      const outcome = await client.contacts.import(group, {
        idempotencyKey: whole ? k : keyOf,
        onChunk: (e) => onChunk({ ...e, chunk: chunkBase + e.chunk, chunks: Math.max(e.chunks, chunkBase + e.chunks), offset: offset + e.offset }),
      });
      forget();
      chunks = outcome.chunks;
      out.error = outcome.error;
    }
    for (const c of chunks) {
      out.chunks.push({ chunk: { ...c, chunk: chunkBase + c.chunk, offset: offset + c.offset, call: { ...c.call, chunk: chunkBase + c.call.chunk } }, lines: range(lines, c.offset, c.count) });
    }
    chunkBase += chunks.reduce((n, c) => Math.max(n, c.chunk + 1), 0);
    out.contacts += group.length;
    group = [];
    lines = [];
  };
  for await (const r of rows) {
    const converted = convertAttributes(r.value, types);
    if (!('contact' in converted)) continue; // reported in pass 3, in row order
    group.push(converted.contact);
    lines.push(r.line);
    if (group.length === GROUP) await flush(false);
  }
  await flush(true);
  return out;
}
