/**
 * The GitHub Action's two headline figures for `npm run bench`: the committed bundle's size, and the cold start from spawning
 * `node action/dist/index.js` (send mode, as the runner runs it) to its first request reaching a local
 * HTTP server, against spawning `node -e ''` until it exits. Medians of interleaved rounds.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { median, startColdStartProbe } from './cold-start-probe.ts';
import type { Row } from './results.ts';
import { ratio } from './results.ts';

const DIST = join(process.cwd(), 'action', 'dist');
const RUNS = 15;
/** The goal the action's bundle was held to when it was slimmed (see docs/benchmarks.md). */
const BUNDLE_GOAL_BYTES = 1.8e6;

/**
 * Bytes of JavaScript in a bundle directory: the entry and its lazily loaded chunks (and ncc's
 * sourcemap-register.cjs in a bundle built with it); source maps are not counted.
 */
export function jsBytes(dir: string): number {
  return readdirSync(dir)
    .filter((f) => /\.(m?js|cjs)$/.test(f))
    .reduce((n, f) => n + statSync(join(dir, f)).size, 0);
}

export function measureBundleSize(): Row[] {
  const bytes = jsBytes(DIST);
  const entry = statSync(join(DIST, 'index.js')).size;
  return [
    { figure: 'action bundle size (action/dist, all .js)', ours: `${(bytes / 1e6).toFixed(2)} MB`, reference: `${(BUNDLE_GOAL_BYTES / 1e6).toFixed(2)} MB (goal)`, ratio: ratio(bytes, BUNDLE_GOAL_BYTES) },
    { figure: '  of which loaded by every step (index.js)', ours: `${(entry / 1e6).toFixed(2)} MB`, reference: `${(BUNDLE_GOAL_BYTES / 1e6).toFixed(2)} MB (goal)`, ratio: ratio(entry, BUNDLE_GOAL_BYTES) },
  ];
}

export async function measureColdStart(): Promise<Row[]> {
  const { once, close } = await startColdStartProbe();
  try {
    const bare: number[] = [];
    const action: number[] = [];
    await once(['-e', ''], true); // warm the file cache
    await once([join(DIST, 'index.js')], false);
    // Interleaved, so that machine load hits both alike.
    for (let round = 0; round < RUNS; round++) {
      bare.push(await once(['-e', ''], true));
      action.push(await once([join(DIST, 'index.js')], false));
    }
    const [a, b] = [median(action), median(bare)];
    return [{ figure: `cold start of the action, spawn → first request (median of ${RUNS})`, ours: `${a.toFixed(0)} ms`, reference: `${b.toFixed(0)} ms bare \`node -e ''\``, ratio: ratio(a, b) }];
  } finally {
    close();
  }
}
