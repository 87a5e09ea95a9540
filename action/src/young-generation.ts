/**
 * Called by the entry (index.ts) once the bundle's modules are loaded, before any file is read: V8's young
 * generation stays at the size it had then (a few MB) instead of growing to 16–32 MB ones under a streamed
 * file's short-lived rows, whose copies and not-yet-collected garbage made most of a big file's peak RSS
 * (a 50 MB dry run: 246 MB, 156 MB with this; bench/action-memory.ts). `--max-semi-space-size` would say
 * the same but is read only when the heap is made, so it is no use from inside the process; the growth
 * factor is read each time the young generation would grow. A setting the user gave (NODE_OPTIONS or
 * node's own flags) wins.
 */
import { setFlagsFromString } from 'node:v8';

export function boundYoungGeneration(): void {
  const given = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ');
  if (!/--(max-semi-space-size|min-semi-space-size|semi-space-growth-factor)\b/.test(given)) setFlagsFromString('--semi-space-growth-factor=1');
}
