/**
 * The streamed reader (decode-stream.ts + record-stream.ts) fed the bytes in small pieces, so records,
 * CRLFs, multi-byte characters and the BOM straddle read buffers: lines and refusals as for a whole file.
 */
import { detectFormat } from '../../action/src/data-files.ts';
import { decodeStream } from '../../action/src/decode-stream.ts';
import { readInputs } from '../../action/src/inputs.ts';
import { fakeCore } from './helpers.ts';
import { streamRecords } from '../../action/src/record-stream.ts';
import type { StreamedFormat } from '../../action/src/record-stream.ts';

async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  // The reader needs its first 4 KiB to sniff the encoding; after that, pieces as small as `size`.
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function read(content: string | Uint8Array, format: StreamedFormat, size = 3) {
  const bytes = typeof content === 'string' ? Buffer.from(content) : content;
  const out: { line: number; value: Record<string, unknown> }[] = [];
  for await (const r of streamRecords(decodeStream(pieces(bytes, size), 'data/x'), format, 'message')) out.push(r);
  return out;
}

const padding = (n: number) => `${'# padding line\n'.repeat(n)}`;

describe.each([1, 2, 3, 7, 64])('read in pieces of %i bytes after the first 4 KiB', (size) => {
  // 300 comment lines (4.5 KB) first, so the records come after the sniffed head, in small pieces.
  const head = 300;

  test('CSV: comments, blank lines, quoted multi-line cells, CRLF split across pieces, a BOM', async () => {
    const csv = `\ufeff${padding(head)}first_name,email\r\n# c\r\nÄnn,ann@example.com\r\n\r\nBöb,"b\r\nob@example.com"\r\nCid,cid@example.com`;
    const records = await read(csv, 'csv', size);
    expect(records.map((r) => r.line)).toEqual([head + 3, head + 5, head + 7]);
    expect(records.map((r) => r.value.first_name)).toEqual(['Änn', 'Böb', 'Cid']);
    expect(records[1].value.email).toBe('b\nob@example.com');
  });

  test('CSV: a bad row at the end of the file is refused at its true line', async () => {
    const csv = `${padding(head)}a,b\n1,2\n"x\ny",2\n1,2,3\n`;
    await expect(read(csv, 'csv', size)).rejects.toThrow(expect.objectContaining({ line: head + 5, message: expect.stringMatching(/^CSV: Invalid Record Length/) }));
  });

  test('CSV: a duplicate column is refused at the header line', async () => {
    await expect(read(`${padding(head)}\nEmail,email\nx,y\n`, 'csv', size)).rejects.toThrow(expect.objectContaining({ line: head + 2, message: 'columns "Email" and "email" differ only in case: keep one' }));
  });

  test('JSON Lines: lines of each record, blank lines skipped, a syntax error named at its line', async () => {
    const jsonl = `${'\n'.repeat(head)}{"to":"a@x.io","body":"ünï"}\r\n\r\n{"to":"b@x.io"}\n`;
    const records = await read(jsonl, 'jsonl', size);
    expect(records).toEqual([
      { line: head + 1, value: { to: 'a@x.io', body: 'ünï' } },
      { line: head + 3, value: { to: 'b@x.io' } },
    ]);
    await expect(read(`${jsonl}{"to":"c@x.io",}\n`, 'jsonl', size)).rejects.toThrow(expect.objectContaining({ line: head + 4, message: expect.stringMatching(/^JSON Lines: /) }));
    await expect(read(`${jsonl}[1,2]\n`, 'jsonl', size)).rejects.toThrow(expect.objectContaining({ line: head + 4, message: expect.stringContaining('each message must be an object') }));
    await expect(read(`${jsonl}{"__proto__":{"x":1}}`, 'jsonl', size)).rejects.toThrow(expect.objectContaining({ line: head + 4, message: 'field "__proto__" is not allowed (a prototype name)' }));
  });

  test('bad UTF-8 and NUL bytes are refused at their line, with the wording of a whole file', async () => {
    const bad = Buffer.concat([Buffer.from(`${padding(head)}a,b\n1,2\n`), Buffer.from([0x41, 0xe9, 0x0a])]);
    await expect(read(bad, 'csv', size)).rejects.toThrow(`data/x:${head + 3}: is not UTF-8 (first bad byte on line ${head + 3})`);
    await expect(read(`${padding(head)}a,b\n1,\u00002\n`, 'csv', size)).rejects.toThrow(`data/x:${head + 2}: holds a NUL byte (on line ${head + 2})`);
  });

  test('UTF-16 with its BOM is read; lines as in UTF-8', async () => {
    const text = `${padding(head)}x\r\na@x.io\r\n`;
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    expect(await read(le, 'text', size)).toEqual([
      { line: head + 1, value: { value: 'x' } },
      { line: head + 2, value: { value: 'a@x.io' } },
    ]);
  });
});

test('a file in UTF-16 without a BOM, or UTF-32, is refused as a whole', async () => {
  await expect(read(Buffer.from('a,b\n1,2\n', 'utf16le'), 'csv')).rejects.toThrow('data/x: looks like UTF-16LE without a byte-order mark');
  await expect(read(Buffer.from([0xff, 0xfe, 0, 0, 0x61, 0, 0, 0]), 'csv')).rejects.toThrow('data/x: is UTF-32');
});

test('JSON Lines is told by .jsonl and .ndjson, or file-format: jsonl', () => {
  expect(detectFormat('data/messages.jsonl', 'auto')).toBe('jsonl');
  expect(detectFormat('data/messages.NDJSON', 'auto')).toBe('jsonl');
  expect(detectFormat('data/messages.txt', 'jsonl')).toBe('jsonl');
  expect(readInputs(fakeCore({ 'file-format': 'jsonl', 'dry-run': 'true' }), {}, '').fileFormat).toBe('jsonl');
});
