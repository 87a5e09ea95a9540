/**
 * Repository data files (CSV, JSON, YAML, plain text) read into records that remember their line, so
 * a bad row can be annotated at `file:line`.
 */
import type { Node as YamlNode } from 'yaml';

// csv-parse and yaml are loaded on first use (ncc puts them in chunks of their own): a send with
// inline recipients, the most common step, never parses them (bench/action-startup.ts).

export type DataFormat = 'csv' | 'json' | 'yaml' | 'text';

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
  if (ext === 'yaml' || ext === 'yml') return 'yaml';
  if (ext === 'txt' || ext === 'text' || ext === 'list' || ext === undefined) return 'text';
  throw new DataFileError(`cannot tell the format of "${path}" from its extension: set file-format to csv, json, yaml or text`);
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Start offsets of the elements of the JSON array holding the records: the root array, or the array
 * under the root object's `key`. Runs on text JSON.parse already accepted, so it only tracks strings,
 * nesting and object keys.
 */
function jsonElementOffsets(text: string, key: string | undefined): number[] {
  const offsets: number[] = [];
  const stack: { kind: '[' | '{'; key?: string; expectKey?: boolean; expectValue?: boolean }[] = [];
  let i = 0;
  const isTarget = (): boolean => {
    if (stack.length === 1) return stack[0].kind === '[' && key === undefined;
    return stack.length === 2 && stack[0].kind === '{' && stack[0].key === key && stack[1].kind === '[';
  };
  const valueStarts = (at: number): void => {
    const top = stack[stack.length - 1];
    if (top?.kind === '[' && top.expectValue) {
      top.expectValue = false;
      if (isTarget()) offsets.push(at);
    }
  };
  while (i < text.length) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      i++;
      while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
      const top = stack[stack.length - 1];
      if (top?.kind === '{' && top.expectKey) {
        top.key = JSON.parse(text.slice(start, i + 1)) as string;
        top.expectKey = false;
      } else valueStarts(start);
      i++;
      continue;
    }
    if (c === '[' || c === '{') {
      valueStarts(i);
      stack.push(c === '[' ? { kind: '[', expectValue: true } : { kind: '{', expectKey: true });
    } else if (c === ']' || c === '}') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top?.kind === '[') top.expectValue = true;
      else if (top) top.expectKey = true;
    } else if (!/\s|:/.test(c)) {
      valueStarts(i);
    }
    i++;
  }
  return offsets;
}

function asRecord(value: unknown, line: number, what: string): Record<string, unknown> {
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new DataFileError(`line ${line}: each ${what} must be an object with named fields, got ${Array.isArray(value) ? 'a list' : JSON.stringify(value)}`, line);
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

/** Empty CSV/YAML values are left out; exact `true`/`false` become booleans (boolean contact attributes). */
function csvValue(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  return value;
}

/**
 * Reads the records of a data file. `keys` are the object keys a JSON/YAML file may hold its list under
 * (e.g. `messages`); `what` names one record in messages. Plain text gives `{ value: line }` records.
 */
export async function parseRecords(text: string, format: DataFormat, keys: readonly string[], what: string): Promise<DataRecord[]> {
  if (format === 'text') {
    const records: DataRecord[] = [];
    text.split(/\r?\n/).forEach((raw, i) => {
      const value = raw.trim();
      if (value && !value.startsWith('#')) records.push({ line: i + 1, value: { value } });
    });
    return records;
  }
  if (format === 'csv') {
    const { parse: parseCsv } = await import('csv-parse/sync');
    let rows: { record: Record<string, string>; info: { lines: number } }[];
    try {
      rows = parseCsv(text, { columns: true, info: true, bom: true, skip_empty_lines: true, trim: true, comment: '#', comment_no_infix: true }) as typeof rows;
    } catch (error) {
      const e = error as Error & { lines?: number };
      throw new DataFileError(`CSV: ${e.message}`, e.lines);
    }
    return rows.map(({ record, info }) => {
      const value: Record<string, unknown> = {};
      let newlines = 0;
      for (const [k, v] of Object.entries(record)) {
        if (v === '' || v === undefined) continue;
        newlines += (v.match(/\n/g) ?? []).length;
        value[k] = csvValue(v);
      }
      return { line: info.lines - newlines, value };
    });
  }
  if (format === 'json') {
    let root: unknown;
    try {
      root = JSON.parse(text.replace(/^\uFEFF/, ''));
    } catch (error) {
      const pos = /position (\d+)/.exec((error as Error).message)?.[1];
      const line = pos === undefined ? undefined : lineAt(text, Number(pos));
      throw new DataFileError(`JSON: ${(error as Error).message}`, line);
    }
    const { list, key } = pickCollection(root, keys, what);
    const offsets = jsonElementOffsets(text, key);
    return list.map((value, i) => {
      const line = offsets[i] === undefined ? 1 : lineAt(text, offsets[i]);
      return { line, value: asRecord(value, line, what) };
    });
  }
  if (format === 'yaml') {
    const { LineCounter, isMap, isSeq, parseDocument } = await import('yaml');
    const lineCounter = new LineCounter();
    // failsafe: every scalar is text (`+4915…` stays a phone number, not an integer); then exact
    // true/false become booleans and empty values are left out, as in CSV.
    const doc = parseDocument(text, { lineCounter, prettyErrors: false, schema: 'failsafe' });
    if (doc.errors.length) {
      const first = doc.errors[0];
      throw new DataFileError(`YAML: ${first.message.split('\n')[0]}`, lineCounter.linePos(first.pos[0]).line);
    }
    const root = doc.contents as YamlNode | null;
    let seqNode: YamlNode | null = null;
    if (isSeq(root)) seqNode = root;
    else if (isMap(root)) {
      for (const k of keys) {
        const n = root.get(k, true) as YamlNode | undefined;
        if (isSeq(n)) {
          seqNode = n;
          break;
        }
      }
    }
    const { list } = pickCollection(doc.toJS(), keys, what);
    const items = isSeq(seqNode) ? seqNode.items : [];
    return list.map((value, i) => {
      const node = items[i] as YamlNode | undefined;
      const line = node?.range ? lineCounter.linePos(node.range[0]).line : 1;
      const record = asRecord(value, line, what);
      const cleaned: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(record)) if (v !== '' && v !== null) cleaned[k] = typeof v === 'string' ? csvValue(v) : v;
      return { line, value: cleaned };
    });
  }
  throw new DataFileError(`unknown file-format "${format as string}"`);
}
