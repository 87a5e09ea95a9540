/**
 * Called by the entry (index.ts) once the bundle's modules are loaded, before any file is read. A streamed
 * file's rows are short-lived, yet V8 by default lets the heap grow far past what is live before it
 * collects: the young generation (new space) grows from 2 MB to 134 MB, and the old generation to
 * about twice its live size. Their garbage made most of a big file's peak RSS (bench/action-memory.ts, a
 * 50 MB sync-contacts dry run: 246 MB; 162 MB with the young generation held, 129 MB with both).
 *
 * `--max-semi-space-size` and `--max-old-space-size` are read only when the heap is made, so they are no
 * use from inside the process (the first, measured: no effect); these two are read at each growth and each full
 * collection. The cost is more frequent collections of a small heap (a 50 MB dry run took about as long).
 * A flag of the same kind the user gave (NODE_OPTIONS or node's own flags) wins.
 */
import { setFlagsFromString } from 'node:v8';

/** The old generation may grow 10 % past what the last full collection found live. */
const OLD_GENERATION_GROWTH_PERCENT = 10;

export function boundHeapGrowth(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (!/--(max-semi-space-size|min-semi-space-size|semi-space-growth-factor)\b/.test(given)) setFlagsFromString('--semi-space-growth-factor=1');
  // A cap (--max-old-space-size) is no growth policy: the two work together.
  if (!/--heap-growing-percent\b/.test(given)) setFlagsFromString(`--heap-growing-percent=${OLD_GENERATION_GROWTH_PERCENT}`);
}
