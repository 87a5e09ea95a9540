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
 * that throws stops the run: chunks not yet started are handed to `skipped` with that error; chunks
 * already in flight finish and keep their results.
 */
export async function runChunks<T, R>(
  chunks: readonly Chunk<T>[],
  concurrency: number,
  work: (chunk: Chunk<T>) => Promise<R>,
  failed: (chunk: Chunk<T>, error: unknown) => R,
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
      try {
        results[current.chunk] = await work(current);
      } catch (error) {
        stop ??= { error };
        results[current.chunk] = failed(current, error);
      }
    }
  };
  const lanes = Math.max(1, Math.min(concurrency, chunks.length));
  await Promise.all(Array.from({ length: lanes }, lane));
  return { results, error: stop?.error };
}

/** UTF-8 length of a string, without Buffer or TextEncoder (src/ uses no host globals). */
export function utf8Bytes(text: string): number {
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

/**
 * Like `chunk`, but each chunk's JSON body also stays within `maxBytes`: `overheadBytes` is the body
 * with an empty list, each item adds its JSON size and a comma. An item too big on its own gets a
 * chunk of its own (the caller refuses it before sending).
 */
export function chunkWithin<T>(items: readonly T[], maxCount: number, maxBytes: number, overheadBytes: number): (Chunk<T> & { bytes: number })[] {
  const chunks: (Chunk<T> & { bytes: number })[] = [];
  let current: (Chunk<T> & { bytes: number }) | undefined;
  for (let i = 0; i < items.length; i++) {
    const size = utf8Bytes(JSON.stringify(items[i]) ?? 'null') + 1;
    if (!current || current.items.length >= maxCount || (current.items.length > 0 && current.bytes + size > maxBytes)) {
      current = { chunk: chunks.length, offset: i, items: [], bytes: overheadBytes };
      chunks.push(current);
    }
    current.items.push(items[i]);
    current.bytes += size;
  }
  return chunks;
}
