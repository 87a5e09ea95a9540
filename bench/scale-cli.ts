/**
 * npm run bench:scale — N = 1, 2, 4, 8 client processes on one sandbox key (see bench/scale.ts).
 * Prints one line per N, writes bench/results-scale.json and docs/images/scale.svg. A baseline
 * (`--baseline file.json`, an earlier results file) is drawn dashed in the chart and kept in the JSON.
 * `--out file.json` writes the results elsewhere (and skips the chart), for a before-run.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scaleChartSvg } from './scale-chart.ts';
import { DEFAULT_SCALE, formatScaleRow, runScale } from './scale.ts';
import type { ScaleRow } from './scale.ts';

function arg(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

const RESULTS = join(process.cwd(), 'bench', 'results-scale.json');
const BEFORE = join(process.cwd(), 'bench', 'results-scale-before.json');
const CHART = join(process.cwd(), 'docs', 'images', 'scale.svg');

async function main(): Promise<void> {
  const started = Date.now();
  const rows = await runScale(DEFAULT_SCALE);
  for (const row of rows) console.log(formatScaleRow(row));
  console.log(`(${DEFAULT_SCALE.limit} calls per ${DEFAULT_SCALE.windowSeconds} s window, ${DEFAULT_SCALE.windows} windows per N, ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  const out = arg('--out');
  const baselineFile = arg('--baseline') ?? (existsSync(BEFORE) ? BEFORE : undefined);
  const baseline = !out && baselineFile ? ((JSON.parse(readFileSync(baselineFile, 'utf8')) as { rows: ScaleRow[] }).rows) : undefined;
  writeFileSync(out ?? RESULTS, `${JSON.stringify({ options: DEFAULT_SCALE, rows, baseline }, null, 2)}\n`);
  if (out) return;
  mkdirSync(dirname(CHART), { recursive: true });
  writeFileSync(CHART, scaleChartSvg(rows, baseline));
}

void main();
