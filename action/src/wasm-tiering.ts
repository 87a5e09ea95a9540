/**
 * Called by the entry (index.ts) before the first HTTP call. undici parses responses with llhttp, a
 * WebAssembly module. V8 first compiles it with its baseline compiler (Liftoff); after a few responses it
 * recompiles the hot parser function with its optimizing compiler on a worker thread, which takes about
 * 22 MB of compiler memory at once (v8.getHeapStatistics().peak_malloced_memory: 29 MB against 7 MB
 * without). That worker's malloc arena keeps the pages, so the peak RSS of a 50 MB incremental sync rose
 * by about 20 MB at its first import call (bench/action-memory.ts). The action makes at most a few
 * thousand calls with small answers: the baseline code costs no measurable CPU a call (0.27–0.29 ms a
 * call either way, 3,000 calls with 18 KB answers).
 *
 * Both flags are needed: with dynamic tiering off, V8 tiers every function up eagerly instead. They are
 * read at each compilation, so they work from inside the process. A wasm tiering flag the user gave
 * (NODE_OPTIONS or node's own flags) wins.
 */
import { setFlagsFromString } from 'node:v8';

export function keepWasmOnBaseline(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (/--(no-)?(wasm-tier-up|wasm-dynamic-tiering|liftoff|liftoff-only)\b/.test(given)) return;
  setFlagsFromString('--no-wasm-tier-up');
  setFlagsFromString('--no-wasm-dynamic-tiering');
}
