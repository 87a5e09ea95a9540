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
