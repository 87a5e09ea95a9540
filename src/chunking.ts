export interface Chunk<T> {
  /** Zero-based chunk number. */
  chunk: number;
  /** Index in the caller's input of this chunk's first element. */
  offset: number;
  items: T[];
}

/** Splits `items` into consecutive chunks of at most `size`, remembering where each began. */
export function chunk<T>(items: readonly T[], size: number): Chunk<T>[] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  const chunks: Chunk<T>[] = [];
  for (let offset = 0; offset < items.length; offset += size) {
    chunks.push({ chunk: chunks.length, offset, items: items.slice(offset, offset + size) });
  }
  return chunks;
}

/**
 * Runs `work` over the chunks with at most `concurrency` in flight, in chunk order. The first chunk
 * whose work reports an error stops the run: chunks not yet started are handed to `skipped` with that
 * error; chunks already in flight finish and keep their results.
 */
export async function runChunks<T, R>(
  chunks: readonly Chunk<T>[],
  concurrency: number,
  work: (chunk: Chunk<T>) => Promise<{ value: R; error?: unknown }>,
  skipped: (chunk: Chunk<T>, error: unknown) => R,
): Promise<{ results: R[]; error?: unknown }> {
  const results = new Array<R>(chunks.length);
  let next = 0;
  let stop: { error: unknown } | undefined;
  const lane = async (): Promise<void> => {
    while (next < chunks.length) {
      const current = chunks[next++];
      if (stop) {
        results[current.chunk] = skipped(current, stop.error);
        continue;
      }
      const { value, error } = await work(current);
      results[current.chunk] = value;
      if (error !== undefined) stop ??= { error };
    }
  };
  const lanes = Math.max(1, Math.min(concurrency, chunks.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return { results, error: stop?.error };
}

/** UTF-8 length of a string, without Buffer or TextEncoder (src/ uses no host globals). */
export function utf8Bytes(text: string): number {
  if (!/[\u0080-\uffff]/.test(text)) return text.length;
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4; // a surrogate pair is one 4-byte character
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** A chunk bounded by count and body size, with its JSON body already built. */
export interface SizedChunk<T> extends Chunk<T> {
  bodyText: string;
  /** The body's size in bytes (UTF-8); for a body far within the bound, its length (counting is skipped). */
  bytes: number;
}

/** How a chunked write's body is made: from its items, or from its items' JSON texts. */
export interface BodyOf<T> {
  whole: (items: T[]) => string;
  fromTexts: (texts: string[]) => string;
}

/**
 * Like `chunk`, but each chunk's JSON body also stays within `maxBytes`. Each count-bounded chunk is
 * serialised once; only one that is too big is cut further, by its items' own sizes. An item too big
 * on its own gets a chunk of its own (the caller refuses it before sending).
 */
export function chunkWithin<T>(items: readonly T[], maxCount: number, maxBytes: number, body: BodyOf<T>): SizedChunk<T>[] {
  const out: SizedChunk<T>[] = [];
  let overhead: number | undefined; // the empty list's body: measured only when a chunk must be cut
  for (const c of chunk(items, maxCount)) {
    const bodyText = body.whole(c.items);
    // At most 3 UTF-8 bytes per UTF-16 unit: a body that fits even so need not be counted.
    const bytes = bodyText.length * 3 <= maxBytes ? bodyText.length : utf8Bytes(bodyText);
    if (bytes <= maxBytes || c.items.length === 1) {
      out.push({ ...c, chunk: out.length, bodyText, bytes });
      continue;
    }
    const empty = (overhead ??= utf8Bytes(body.fromTexts([])));
    let part = { offset: c.offset, items: [] as T[], texts: [] as string[], bytes: empty };
    const flush = () => {
      if (part.items.length === 0) return;
      const text = body.fromTexts(part.texts);
      out.push({ chunk: out.length, offset: part.offset, items: part.items, bodyText: text, bytes: utf8Bytes(text) });
    };
    c.items.forEach((item, i) => {
      const text = JSON.stringify(item) ?? 'null';
      const size = utf8Bytes(text) + 1;
      if (part.items.length > 0 && part.bytes + size > maxBytes) {
        flush();
        part = { offset: c.offset + i, items: [], texts: [], bytes: empty };
      }
      part.items.push(item);
      part.texts.push(text);
      part.bytes += size;
    });
    flush();
  }
  return out;
}
