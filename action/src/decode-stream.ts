/**
 * A file's bytes decoded as they are read, as strictly as decodeText (workspace-files.ts): UTF-8 (a BOM
 * is dropped) or UTF-16 with its BOM; UTF-32, BOM-less UTF-16/32, bad UTF-8 and NUL bytes are refused
 * with the same words and line. Line ends come out as LF (CRLF and lone CR too), so every reader counts
 * lines one way. Memory is one read buffer, whatever the file's size.
 */
import { EncodingError, firstBadUtf8Line, wideEncoding } from './workspace-files.ts';

/** The BOM-sniffing and wide-encoding checks need the first 4 KiB (or the whole of a smaller file). */
const SNIFF_BYTES = 4096;

function isUtf32Bom(b: Uint8Array): boolean {
  return (b[0] === 0xff && b[1] === 0xfe && b[2] === 0 && b[3] === 0) || (b[0] === 0 && b[1] === 0 && b[2] === 0xfe && b[3] === 0xff);
}

/** How many bytes at the end of `bytes` start a UTF-8 character that is not complete yet (0–3). */
function incompleteTail(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(3, bytes.length); back++) {
    const b = bytes[bytes.length - back];
    if ((b & 0xc0) !== 0x80) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
      return need > back ? back : 0;
    }
  }
  return 0;
}

function countLf(bytes: Uint8Array): number {
  let n = 0;
  for (let i = bytes.indexOf(0x0a); i >= 0; i = bytes.indexOf(0x0a, i + 1)) n++;
  return n;
}

async function* sniffed(source: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let head: Uint8Array = new Uint8Array(0);
  const it = source[Symbol.asyncIterator]();
  while (head.length < SNIFF_BYTES) {
    const next = await it.next();
    if (next.done) break;
    head = head.length ? Buffer.concat([head, next.value]) : next.value;
  }
  if (head.length) yield head;
  for (let next = await it.next(); !next.done; next = await it.next()) yield next.value;
}

/** Strict UTF-8 decoding, one buffer at a time, naming the line of the first bad byte. */
function utf8Decoder(shownPath: string): (bytes: Uint8Array | undefined) => string {
  // ignoreBOM: the file's BOM is already dropped, and a U+FEFF at the start of a later buffer is text.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let carry: Uint8Array = new Uint8Array(0);
  let linesBefore = 0;
  return (bytes: Uint8Array | undefined): string => {
    const all = carry.length ? Buffer.concat([carry, bytes ?? new Uint8Array(0)]) : (bytes ?? new Uint8Array(0));
    const keep = bytes ? incompleteTail(all) : 0;
    const whole = all.subarray(0, all.length - keep);
    carry = all.slice(all.length - keep);
    try {
      const text = decoder.decode(whole);
      linesBefore += countLf(whole);
      return text;
    } catch {
      const line = linesBefore + (firstBadUtf8Line(whole) ?? 1);
      throw new EncodingError(shownPath, line, `is not UTF-8 (first bad byte on line ${line}); save the file as UTF-8 (or UTF-16 with a BOM), e.g. \`iconv -f latin1 -t utf-8\``);
    }
  };
}

/** Decoded text pieces of `source` (bytes as read), line ends as LF. */
export async function* decodeStream(source: AsyncIterable<Uint8Array>, shownPath: string): AsyncGenerator<string> {
  let decode: ((bytes: Uint8Array | undefined) => string) | undefined;
  let lines = 1;
  let pendingCr = false;
  /** `final`: no more text comes, so a CR at the very end is a line end of its own. */
  const emit = (raw: string, final = false): string => {
    let text = pendingCr ? `\r${raw}` : raw;
    pendingCr = !final && text.endsWith('\r');
    if (pendingCr) text = text.slice(0, -1);
    text = text.replace(/\r\n?/g, '\n');
    const nul = text.indexOf('\u0000');
    if (nul >= 0) {
      const line = lines + (text.slice(0, nul).match(/\n/g)?.length ?? 0);
      throw new EncodingError(shownPath, line, `holds a NUL byte (on line ${line}): a text file has none; is it binary, or saved in another encoding?`);
    }
    lines += text.match(/\n/g)?.length ?? 0;
    return text;
  };
  for await (const chunk of sniffed(source)) {
    let bytes = chunk;
    if (!decode) {
      if (isUtf32Bom(bytes)) throw new EncodingError(shownPath, 1, 'is UTF-32 (its byte-order mark says so), which the action does not read: save it as UTF-8.', false);
      if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
        const wide = new TextDecoder(bytes[0] === 0xff ? 'utf-16le' : 'utf-16be');
        decode = (b) => (b ? wide.decode(b, { stream: true }) : wide.decode());
        bytes = bytes.subarray(2);
      } else {
        if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) bytes = bytes.subarray(3);
        const wide = bytes.includes(0) ? wideEncoding(bytes) : undefined;
        if (wide) throw new EncodingError(shownPath, 1, `looks like ${wide} without a byte-order mark (NUL bytes between its characters): save it as UTF-8${wide.startsWith('UTF-16') ? ', or as UTF-16 with its BOM' : ''}.`, false);
        decode = utf8Decoder(shownPath);
      }
    }
    const text = emit(decode(bytes));
    if (text) yield text;
  }
  const last = emit(decode ? decode(undefined) : '', true);
  if (last) yield last;
}
