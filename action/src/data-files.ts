/**
 * Repository data files (CSV, JSON, YAML, plain text) read into records that remember their line, so
 * a bad row can be annotated at `file:line`. Values stay as written (text in CSV and YAML): typed
 * contact attributes are converted later, by the types the service reports (attributes.ts).
 */
import type { Node as YamlNode } from 'yaml';
import { isPrototypeName } from '../../src/index.ts';
import { jsonElementOffsets } from './json-offsets.ts';
import { streamRecords } from './record-stream.ts';

// csv-parse and yaml are loaded on first use (ncc puts them in chunks of their own): a send with
// inline recipients, the most common step, never parses them (bench/action-startup.ts).

export type DataFormat = 'csv' | 'jsonl' | 'json' | 'yaml' | 'text';

export interface DataRecord {
  /** 1-based line where the record starts. */
  line: number;
  value: Record<string, unknown>;
}

export class DataFileError extends Error {
  readonly line?: number;
  constructor(message: string, line?: number) {
    super(message);
    this.name = 'DataFileError';
    this.line = line;
  }
}

export function detectFormat(path: string, given: string): DataFormat {
  if (given && given !== 'auto') return given as DataFormat;
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (ext === 'csv') return 'csv';
  if (ext === 'json') return 'json';
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  if (ext === 'yaml' || ext === 'yml') return 'yaml';
  if (ext === 'txt' || ext === 'text' || ext === 'list' || ext === undefined) return 'text';
  throw new DataFileError(`cannot tell the format of "${path}" from its extension: set file-format to csv, jsonl, json, yaml or text`);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Field names that differ only in case (`Email`, `email`) or repeat: refused by name, never dropped. A NUL
 * (e.g. a JSON `\u0000`) is refused too: no service field or attribute has one.
 */
export function checkFieldNames(names: readonly string[], line: number | undefined, where: string): void {
  const seen = new Map<string, string>();
  for (const name of names) {
    if (name.includes('\u0000')) throw new DataFileError(`${where} "${name.replace(/\u0000/g, '\\0')}" holds a NUL character`, line);
    if (isPrototypeName(name.trim())) throw new DataFileError(`${where} "${name.trim()}" is not allowed (a prototype name)`, line);
    const folded = name.trim().toLowerCase();
    const earlier = seen.get(folded);
    if (earlier !== undefined) {
      throw new DataFileError(earlier === name ? `${where} "${name}" appears twice` : `${where}s "${earlier}" and "${name}" differ only in case: keep one`, line);
    }
    seen.set(folded, name);
  }
}

export function asRecord(value: unknown, line: number, what: string): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    checkFieldNames(Object.keys(value), line, 'field');
    return value as Record<string, unknown>;
  }
  throw new DataFileError(`each ${what} must be an object with named fields, got ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}`, line);
}

function pickCollection(root: unknown, keys: readonly string[], what: string): { list: unknown[]; key?: string } {
  if (Array.isArray(root)) return { list: root };
  if (root && typeof root === 'object') {
    for (const key of keys) {
      const list = (root as Record<string, unknown>)[key];
      if (Array.isArray(list)) return { list, key };
    }
  }
  throw new DataFileError(`expected a list of ${what}s, or an object with ${keys.map((k) => `"${k}"`).join(' or ')} holding one`);
}

function parseJson(text: string, keys: readonly string[], what: string): DataRecord[] {
  let root: unknown;
  try {
    root = JSON.parse(text);
  } catch (error) {
    const pos = /position (\d+)/.exec((error as Error).message)?.[1];
    throw new DataFileError(`JSON: ${(error as Error).message}`, pos === undefined ? undefined : lineAt(text, Number(pos)));
  }
  const { list, key } = pickCollection(root, keys, what);
  const offsets = jsonElementOffsets(text, key);
  // One walk for all the (increasing) offsets: lineAt from the start for each was quadratic.
  const lines: number[] = [];
  for (let at = 0, line = 1, k = 0; k < offsets.length; at++) {
    while (k < offsets.length && offsets[k] === at) lines[k++] = line;
    if (text.charCodeAt(at) === 10) line++;
  }
  return list.map((value, i) => {
    const line = lines[i] ?? 1;
    return { line, value: asRecord(value, line, what) };
  });
}

async function parseYaml(text: string, keys: readonly string[], what: string): Promise<DataRecord[]> {
  const { LineCounter, isMap, isSeq, parseDocument } = await import('yaml');
  const lineCounter = new LineCounter();
  // failsafe: every scalar is text (`+4915…` stays a phone number, not an integer), as in CSV.
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, schema: 'failsafe' });
  if (doc.errors.length) {
    const first = doc.errors[0];
    throw new DataFileError(`YAML: ${first.message.split('\n')[0]}`, lineCounter.linePos(first.pos[0]).line);
  }
  const root = doc.contents as YamlNode | null;
  let seqNode: YamlNode | null = null;
  if (isSeq(root)) seqNode = root;
  else if (isMap(root)) seqNode = (keys.map((k) => root.get(k, true) as YamlNode | undefined).find((n) => isSeq(n)) as YamlNode | undefined) ?? null;
  const { list } = pickCollection(doc.toJS(), keys, what);
  const items = isSeq(seqNode) ? seqNode.items : [];
  return list.map((value, i) => {
    const node = items[i] as YamlNode | undefined;
    const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1;
    const record = asRecord(value, line, what);
    const cleaned: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(record)) if (v !== '' && v !== null) cleaned[k] = v;
    return { line, value: cleaned };
  });
}

/**
 * The records of a data file's text, all at once (tests, and the whole-document formats). `keys` are the
 * object keys a JSON/YAML file may hold its list under (e.g. `messages`); `what` names one record in
 * messages. Plain text gives `{ value: line }` records. Files are read with readRecordStream (shared.ts).
 */
export async function parseRecords(text: string, format: DataFormat, keys: readonly string[], what: string): Promise<DataRecord[]> {
  if (format === 'csv' || format === 'jsonl' || format === 'text') {
    const records: DataRecord[] = [];
    for await (const r of streamRecords([text.replace(/\r\n?/g, '\n')], format, what)) records.push(r);
    return records;
  }
  if (format === 'json') return parseJson(text, keys, what);
  if (format === 'yaml') return parseYaml(text, keys, what);
  throw new DataFileError(`unknown file-format "${format as string}"`);
}
