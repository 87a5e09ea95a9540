/** The bench:scale rows in the one-run table, and the kept run of the limiter before the scale work. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Row, ScaleRow } from './results.ts';

/** The rows of an earlier run kept as the baseline (bench/results-scale-before.json, as scale-cli writes it), when present. */
export function loadScaleBaseline(): ScaleRow[] | null {
  const file = join(process.cwd(), 'bench', 'results-scale-before.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as { rows: ScaleRow[] }).rows : null;
}

export function scaleTableRows(rows: ScaleRow[]): Row[] {
  return rows.map((r) => ({
    figure: `bench:scale N=${r.processes} (429s ${(r.rate429 * 100).toFixed(1)} % of requests, lost ${r.lost}, dup ${r.dup})`,
    ours: `${r.throughput.toFixed(2)} of ceiling`,
    reference: 'the key’s ceiling',
    ratio: r.throughput,
  }));
}
