/**
 * Files that are not text in UTF-8 (or UTF-16 with its byte-order mark) are refused naming the file and
 * why, before any request: a UTF-16 or UTF-32 export without a BOM is valid UTF-8 byte for byte, but full
 * of NULs. A NUL in a field name is refused too. Run as the runner runs the bundle, against a sandbox.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { runStep, useBundleSandbox } from './runner.ts';

const sandbox = useBundleSandbox();

const CSV = 'first_name,email\nAnn,ann@example.com\nBob,bob@example.com\n';

function utf32(text: string, littleEndian: boolean): Buffer {
  const cps = [...text].map((c) => c.codePointAt(0)!);
  const out = Buffer.alloc(cps.length * 4);
  cps.forEach((cp, i) => (littleEndian ? out.writeUInt32LE(cp, i * 4) : out.writeUInt32BE(cp, i * 4)));
  return out;
}

const sync = (file: string, content: Uint8Array | string) => runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, mode: 'sync-contacts', file }, { files: { [file]: content } });

test.each([
  ['UTF-16LE', Buffer.from(CSV, 'utf16le')],
  ['UTF-16BE', Buffer.from(CSV, 'utf16le').swap16()],
  ['UTF-32LE', utf32(CSV, true)],
  ['UTF-32BE', utf32(CSV, false)],
])('a %s export without a byte-order mark is refused naming the file and the encoding', async (encoding, bytes) => {
  const r = await sync('export.csv', bytes);
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(new RegExp(`^::error title=Cannot read file,file=export\\.csv,line=1::export\\.csv: looks like ${encoding} without a byte-order mark`, 'm'));
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('a UTF-32 file with its byte-order mark is refused (not read as UTF-16)', async () => {
  const r = await sync('export.csv', Buffer.concat([Buffer.from([0xff, 0xfe, 0, 0]), utf32(CSV, true)]));
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('export.csv: is UTF-32');
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('a NUL byte in a UTF-8 file is refused at its line', async () => {
  const r = await sync('c.csv', 'first_name,email\nAnn,ann@example.com\nB\u0000ob,bob@example.com\n');
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^::error title=Cannot read file,file=c\.csv,line=3::c\.csv:3: holds a NUL byte/m);
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('a NUL in a field name (a JSON escape) is refused by name; nothing is sent', async () => {
  const json = JSON.stringify({ contacts: [{ email: 'ann@example.com', 'first\u0000name': 'Ann' }] });
  const r = await sync('c.json', json);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('::error::Input "file": c.json:1: field "first\\0name" holds a NUL character');
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('UTF-16 with its BOM is still read', async () => {
  const r = await sync('ok.csv', Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(CSV, 'utf16le').swap16()]));
  expect(r.code).toBe(0);
  expect(ledgerRows(sandbox).contacts.map((c) => c.first_name).sort()).toEqual(['Ann', 'Bob']);
});
