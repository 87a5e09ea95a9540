/**
 * Seeded contacts and messages files of a chosen size, written straight to disk (never held whole in
 * memory, never stored in the repo): CSV, JSON Lines, JSON (an array, one element a line) or YAML (a
 * sequence of flow mappings, one a line). The same seed gives the same bytes. Every row's recipient is
 * unique and names its row index, so a ledger read back tells which rows arrived and how often.
 * Some message bodies span two lines (quoted in CSV), so a row's line is not its index + 2: the writer
 * counts the line each row starts on.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { seededRandom } from '../test/support/seeded-random.ts';

export type FileKind = 'contacts' | 'messages';
export type FileFormat = 'csv' | 'jsonl' | 'json' | 'yaml';
export type Row = Record<string, string>;

const FIRST_NAMES = ['Anna', 'Ben', 'Chloé', 'Dmitri', "O'Neil", 'Zoë', 'Müller, Jr.', 'Ngozi', 'Hiro', 'Lucía', 'Ava "Jo"', 'Søren'];
const CITIES = ['Berlin', 'Lagos', 'São Paulo', 'Osaka', 'Zürich', 'Lyon', 'Austin', 'Kraków'];
const PHONE_BASE = 10_000_000;

const pick = <T>(random: () => number, list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

/** Contact row `i`: unique email and whatsapp (both name `i`), a name that needs CSV quoting now and then, typed attributes. */
export function contactRow(i: number, random: () => number): Row {
  return { first_name: pick(random, FIRST_NAMES), email: `c${i}@example.com`, whatsapp: `+49151${PHONE_BASE + i}`, city: pick(random, CITIES), vip: random() < 0.1 ? 'true' : 'false' };
}

/** Message row `i`: whatsapp or e-mail, `to` names `i`; about one body in 50 spans two lines. */
export function messageRow(i: number, random: () => number): Row {
  const email = random() < 0.3;
  const parcel = Math.floor(random() * 1e9).toString(36);
  const body = `Order ${i} has shipped (parcel ${parcel}): it arrives on ${pick(random, ['Monday', 'Tuesday', 'Friday'])}.${random() < 0.02 ? '\nReply STOP to opt out.' : ''}`;
  return email ? { channel: 'email', to: `m${i}@example.com`, subject: `Order ${i}`, body } : { channel: 'whatsapp', to: `+49151${PHONE_BASE + i}`, body };
}

/** The row index a recipient written by contactRow or messageRow names, or -1. */
export function rowOfRecipient(to: string): number {
  const mail = /^[cm](\d+)@example\.com$/.exec(to);
  if (mail) return Number(mail[1]);
  const phone = /^\+49151(\d+)$/.exec(to);
  return phone ? Number(phone[1]) - PHONE_BASE : -1;
}

export const COLUMNS: Record<FileKind, readonly string[]> = {
  contacts: ['first_name', 'email', 'whatsapp', 'city', 'vip'],
  messages: ['channel', 'to', 'subject', 'body'],
};

function csvField(value: string | undefined): string {
  if (value === undefined) return '';
  return /[",\n\r]|^\s|\s$/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One row as it is written in `format`, without its line end, and the line breaks inside it. */
export function formatRow(kind: FileKind, format: FileFormat, row: Row): { text: string; breaks: number } {
  if (format === 'csv') {
    const text = COLUMNS[kind].map((c) => csvField(row[c])).join(',');
    return { text, breaks: text.split('\n').length - 1 };
  }
  const json = JSON.stringify(row);
  return { text: format === 'yaml' ? `- ${json}` : format === 'json' ? `  ${json}` : json, breaks: 0 };
}

export interface GenerateOptions {
  kind: FileKind;
  format: FileFormat;
  /** Rows are written until the file holds at least this many bytes. */
  targetBytes: number;
  seed: number;
  /** Changes row `i` after it is drawn (the random sequence stays the same, so other rows don't move). */
  edit?: (i: number, row: Row) => Row;
  /** One more row after the target is reached, as this returns it (e.g. a row the service refuses, at the very end). */
  finalRow?: (row: Row) => Row;
}

export interface GeneratedFile {
  bytes: number;
  rows: number;
  /** The line each row starts on, for the last row (1-based). */
  lastLine: number;
}

/** Writes the file at `path` in ~1 MB writes and tells its size, rows and the last row's line. */
export function generateFile(path: string, options: GenerateOptions): GeneratedFile {
  const { kind, format, targetBytes, seed, edit, finalRow } = options;
  const random = seededRandom(seed);
  const makeRow = kind === 'contacts' ? contactRow : messageRow;
  const fd = openSync(path, 'w');
  let buffer: string[] = [];
  let pending = 0;
  let bytes = 0;
  const write = (text: string): void => {
    buffer.push(text);
    pending += text.length;
    if (pending >= 1 << 20) flush();
  };
  const flush = (): void => {
    bytes += writeSync(fd, buffer.join(''));
    buffer = [];
    pending = 0;
  };
  let line = 1;
  if (format === 'csv') {
    write(`${COLUMNS[kind].join(',')}\n`);
    line = 2;
  } else if (format === 'json') {
    write('[\n');
    line = 2;
  }
  let rows = 0;
  let lastLine = line;
  try {
    // Buffered text is counted in UTF-8 bytes at flush; the loop estimates with string length, then checks exactly.
    for (;;) {
      const drawn = makeRow(rows, random);
      const { text, breaks } = formatRow(kind, format, edit ? edit(rows, drawn) : drawn);
      write((format === 'json' && rows > 0 ? ',\n' : '') + text + (format === 'json' ? '' : '\n'));
      lastLine = line;
      line += breaks + 1;
      rows++;
      if (bytes + pending * 1.05 >= targetBytes) {
        flush();
        if (bytes >= targetBytes) break;
      }
    }
    if (finalRow) {
      const { text } = formatRow(kind, format, finalRow(makeRow(rows, random)));
      write((format === 'json' ? ',\n' : '') + text + (format === 'json' ? '' : '\n'));
      lastLine = line;
      rows++;
    }
    if (format === 'json') write('\n]\n');
    flush();
  } finally {
    closeSync(fd);
  }
  return { bytes, rows, lastLine };
}
