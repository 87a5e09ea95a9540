/**
 * The formats read record by record as the text arrives (CSV, JSON Lines, plain text), each record
 * with the 1-based line it starts on, so memory holds the record being read, not the file. The text
 * comes from decodeStream (line ends already LF). JSON arrays and YAML are whole-document formats:
 * data-files.ts reads them, within a size limit (size-limit.ts).
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { asRecord, checkFieldNames, DataFileError } from './data-files.ts';
import type { DataRecord } from './data-files.ts';

/** Text pieces in order: a decoded file stream, or one string. */
type Texts = AsyncIterable<string> | Iterable<string>;

export type StreamedFormat = 'csv' | 'jsonl' | 'text';

/** Blank and comment lines csv-parse skips before a record (they are part of its raw text). */
const SKIPPED_LINES = /^(?:[ \t]*(?:#[^\n]*)?\n)*/;
/** A line that is neither blank nor a comment: the CSV header is the first. */
const CONTENT_LINE = /^[ \t]*[^#\s]/;

/** Whole lines of the text, numbered from 1 (the last one even without its line end). */
async function* numberedLines(texts: Texts): AsyncGenerator<{ line: number; text: string }> {
  let line = 0;
  let partial = '';
  for await (const piece of texts) {
    const parts = (partial + piece).split('\n');
    partial = parts.pop()!;
    for (const text of parts) yield { line: ++line, text };
  }
  if (partial) yield { line: ++line, text: partial };
}

async function* textRecords(texts: Texts): AsyncGenerator<DataRecord> {
  for await (const { line, text } of numberedLines(texts)) {
    const value = text.trim();
    if (value && !value.startsWith('#')) yield { line, value: { value } };
  }
}

async function* jsonLineRecords(texts: Texts, what: string): AsyncGenerator<DataRecord> {
  for await (const { line, text } of numberedLines(texts)) {
    if (!text.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new DataFileError(`JSON Lines: ${(error as Error).message}`, line);
    }
    yield { line, value: asRecord(value, line, what) };
  }
}

/** Passes the text on, noting the line of the CSV header (the first content line) before csv-parse sees it. */
async function* watchHeader(texts: Texts, found: (line: number) => void): AsyncGenerator<string> {
  let line = 1;
  let partial: string | undefined = '';
  for await (const piece of texts) {
    if (partial !== undefined) {
      const parts: string[] = (partial + piece).split('\n');
      partial = parts.pop()!;
      for (const text of parts) {
        if (CONTENT_LINE.test(text)) {
          found(line);
          partial = undefined;
          break;
        }
        line++;
      }
      if (partial !== undefined && CONTENT_LINE.test(partial)) {
        found(line);
        partial = undefined;
      }
    }
    yield piece;
  }
}

async function* csvRecords(texts: Texts): AsyncGenerator<DataRecord> {
  const { parse } = await import('csv-parse');
  let headerLine = 1;
  const parser = parse({
    columns: (header: string[]) => {
      checkFieldNames(header, headerLine, 'column');
      return header.map((h) => h.trim());
    },
    info: true,
    raw: true,
    skip_empty_lines: true,
    trim: true,
    comment: '#',
    comment_no_infix: true,
  });
  // Errors of either side (an encoding error, a CSV error) end the iteration below with that error.
  const fed = pipeline(Readable.from(watchHeader(texts, (line) => (headerLine = line))), parser).catch(() => undefined);
  try {
    for await (const row of parser as AsyncIterable<{ record: Record<string, string>; raw: string; info: { lines: number } }>) {
      const body = row.raw.replace(SKIPPED_LINES, '').replace(/\n$/, '');
      const value: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(row.record)) if (v !== '' && v !== undefined) value[k] = v;
      yield { line: row.info.lines - (body.match(/\n/g) ?? []).length, value };
    }
  } catch (error) {
    if (!(error instanceof Error) || error instanceof DataFileError || error.name === 'EncodingError' || !('code' in error)) throw error;
    throw new DataFileError(`CSV: ${error.message}`, (error as Error & { lines?: number }).lines);
  } finally {
    parser.destroy();
    await fed;
  }
}

/** The records of a streamed format, in file order. `what` names one record in messages (e.g. `contact`). */
export function streamRecords(texts: Texts, format: StreamedFormat, what: string): AsyncGenerator<DataRecord> {
  if (format === 'csv') return csvRecords(texts);
  if (format === 'jsonl') return jsonLineRecords(texts, what);
  return textRecords(texts);
}
