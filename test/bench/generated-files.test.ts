/** The action-memory bench's generated files: the same seed gives the same bytes, and they say what they hold. */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { contactRow, generateFile, messageRow, rowOfRecipient } from '../../bench/generated-files.ts';
import { seededRandom } from '../support/seeded-random.ts';
import type { FileFormat, FileKind } from '../../bench/generated-files.ts';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'generated-files-test-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const make = (name: string, kind: FileKind, format: FileFormat, seed: number, targetBytes = 200_000) => {
  const path = join(dir, name);
  return { ...generateFile(path, { kind, format, targetBytes, seed }), text: readFileSync(path, 'utf8') };
};

test('the same seed writes the same bytes; another seed writes others', () => {
  const a = make('a.csv', 'messages', 'csv', 7);
  const b = make('b.csv', 'messages', 'csv', 7);
  const c = make('c.csv', 'messages', 'csv', 8);
  expect(b.text).toBe(a.text);
  expect(c.text).not.toBe(a.text);
});

test('a file reaches its target size, and states its bytes and rows', () => {
  const f = make('contacts.jsonl', 'contacts', 'jsonl', 1, 300_000);
  expect(f.bytes).toBe(Buffer.byteLength(f.text));
  expect(f.bytes).toBeGreaterThanOrEqual(300_000);
  expect(f.bytes).toBeLessThan(300_000 * 1.1);
  expect(f.text.trimEnd().split('\n')).toHaveLength(f.rows);
});

test('CSV reads back as the rows drawn, quoting and two-line bodies included, and the last row starts on lastLine', () => {
  const f = make('messages.csv', 'messages', 'csv', 3);
  const random = seededRandom(3);
  const drawn = Array.from({ length: f.rows }, (_, i) => messageRow(i, random));
  const read = parse(f.text, { columns: true }) as Record<string, string>[];
  expect(read).toEqual(drawn.map((r) => ({ subject: '', ...r })));
  const lines = f.text.split('\n');
  expect(lines.length - 2).toBeGreaterThan(f.rows); // some bodies span two lines, so line ≠ index + 2
  const last = drawn.at(-1)!;
  expect(lines[f.lastLine - 1]!.startsWith(`${last.channel},${last.to},`)).toBe(true);
});

test('JSON and YAML files hold one row a line, the JSON one an array', () => {
  const json = make('contacts.json', 'contacts', 'json', 5);
  const random = seededRandom(5);
  expect(JSON.parse(json.text)).toEqual(Array.from({ length: json.rows }, (_, i) => contactRow(i, random)));
  expect(json.text.split('\n')[json.lastLine - 1]).toContain(`"email":"c${json.rows - 1}@example.com"`);
  const yaml = make('contacts.yaml', 'contacts', 'yaml', 5);
  expect(yaml.text.split('\n')[yaml.lastLine - 1]).toMatch(new RegExp(`^- \\{.*"email":"c${yaml.rows - 1}@example\\.com"`));
});

test('edit changes only the rows it names; finalRow adds one row at the end', () => {
  const path = join(dir, 'e.csv');
  const plain = make('p.csv', 'contacts', 'csv', 9);
  // Same length as the email it replaces, so the file ends at the same row.
  const edited = generateFile(path, { kind: 'contacts', format: 'csv', targetBytes: 200_000, seed: 9, edit: (i, r) => (i === 4 ? { ...r, email: 'e4@example.com' } : r), finalRow: (r) => ({ ...r, email: 'refused' }) });
  const before = plain.text.split('\n');
  const after = readFileSync(path, 'utf8').split('\n');
  expect(edited.rows).toBe(plain.rows + 1);
  expect(after.filter((l, i) => l !== before[i])).toEqual([after[5], after[edited.lastLine - 1], '']);
  expect(after[5]).toMatch(/,e4@example\.com,/);
  expect(after[edited.lastLine - 1]).toMatch(/,refused,/);
});

test('a recipient names its row', () => {
  const random = seededRandom(2);
  for (let i = 0; i < 50; i++) {
    expect(rowOfRecipient(messageRow(i, random).to!)).toBe(i);
    expect(rowOfRecipient(contactRow(i, random).email!)).toBe(i);
    expect(rowOfRecipient(contactRow(i, random).whatsapp!)).toBe(i);
  }
  expect(rowOfRecipient('someone@else.org')).toBe(-1);
});
