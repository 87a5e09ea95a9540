/**
 * bench/results-n8n-scale.json on docs/benchmarks.md: the table of medians, the ratios the issue sets
 * targets on, and two charts of the measured node against its input (added RSS, node time).
 */
import { lineChart } from './charts.ts';
import { expectedCalls, ratiosAt, VARIANT_LABELS, VARIANTS, type Ratios, type Variant, type VariantFigures } from './n8n-scale-figures.ts';
import type { Machine } from './results.ts';

export const N8N_SCALE_RESULTS = 'bench/results-n8n-scale.json';

export interface N8nScaleResults {
  machine: Machine;
  n8n: string;
  /** How the figures were taken, in a sentence. */
  method: string;
  figures: VariantFigures[];
}

const COLORS: Record<Variant, string> = {
  noOp: '#6e7781',
  setConstant: '#2da44e',
  setExpressions: '#bf8700',
  sendBatchExpressions: '#d1242f',
  sendBatchByField: '#1f6feb',
};

const MiB = 2 ** 20;
const seconds = (ms: number) => (ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${(ms / 1000).toFixed(2)} s`);
const mib = (bytes: number) => `${Math.round(bytes / MiB)} MiB`;
const times = (r: number | null | undefined) => (r === null || r === undefined ? '–' : `${r.toFixed(2)}×`);

function sizes(results: N8nScaleResults): number[] {
  return [...new Set(results.figures.map((f) => f.items))].sort((a, b) => a - b);
}

function calls(f: VariantFigures): string {
  if (!f.ledger?.length) return '';
  const all = f.ledger.map((l) => l.calls);
  const delivered = f.ledger.every((l) => l.delivered === f.items && l.missing === 0 && l.extra === 0);
  return `${[...new Set(all)].join('/')} (want ${expectedCalls(f.items)})${delivered ? '' : ', NOT all delivered once'}`;
}

/** One row per input size and node: the medians of its runs. */
export function n8nScaleTableLines(results: N8nScaleResults): string[] {
  const rows = results.figures.map((f) => {
    const m = f.median;
    return `| ${f.items.toLocaleString('en-US')} | ${VARIANT_LABELS[f.variant]} | ${seconds(m.nodeMs)} | ${seconds(m.wallMs)} | ${mib(m.addedRssBytes)} | ${mib(m.baseRssBytes)} | ${f.runs.length} | ${calls(f)} |`;
  });
  return ['| items | node after the Code node | node time | workflow wall time | n8n main added RSS | RSS before | runs | calls |', '|---:|---|---:|---:|---:|---:|---:|---|', ...rows];
}

function ratioLine(r: Ratios): string {
  const parts: string[] = [];
  if (r.byFieldVsSetConstant) {
    const x = r.byFieldVsSetConstant;
    parts.push(`Map Automatically ÷ Set one constant: node time ${times(x.nodeTime)}, wall ${times(x.wallTime)}, added RSS ${times(x.addedRss)} (target ≤ 2×)`);
  }
  if (r.expressionsVsSetExpressions) {
    const x = r.expressionsVsSetExpressions;
    parts.push(`expressions ÷ Set with them: node time ${times(x.nodeTime)}, wall ${times(x.wallTime)}, added RSS ${times(x.addedRss)} (target ≤ 1.1×)`);
  }
  const floor = Object.entries(r.overNoOp).map(([v, x]) => `${VARIANT_LABELS[v as Variant]} ${times(x.wallTime)} wall, ${times(x.addedRss)} RSS`);
  if (floor.length) parts.push(`÷ NoOp: ${floor.join('; ')}`);
  return `- ${r.items.toLocaleString('en-US')} items: ${parts.join('. ')}.`;
}

export function ratioLines(results: N8nScaleResults): string[] {
  return sizes(results).map((items) => ratioLine(ratiosAt(items, results.figures)));
}

function seriesOf(results: N8nScaleResults, y: (f: VariantFigures) => number) {
  return VARIANTS.filter((v) => results.figures.some((f) => f.variant === v)).map((v) => ({
    name: VARIANT_LABELS[v].replace(/`/g, ''),
    color: COLORS[v],
    points: results.figures.filter((f) => f.variant === v).sort((a, b) => a.items - b.items).map((f): [number, number] => [f.items, y(f)]),
  }));
}

export function n8nScaleCharts(results: N8nScaleResults): Record<string, string> {
  return {
    'n8n-scale-rss.svg': lineChart({
      title: 'n8n main’s added RSS against input items (median)',
      xLabel: 'items',
      yLabel: 'added RSS (MiB)',
      xLog: true,
      series: seriesOf(results, (f) => Math.max(0, f.median.addedRssBytes) / MiB),
    }),
    'n8n-scale-time.svg': lineChart({
      title: 'The node’s own execution time against input items (median)',
      xLabel: 'items',
      yLabel: 'node time (s)',
      xLog: true,
      yLog: true,
      // A log axis needs a positive value: a NoOp can take 0 ms.
      series: seriesOf(results, (f) => Math.max(1, f.median.nodeMs) / 1000),
    }),
  };
}

/** The section of docs/benchmarks.md (image paths relative to docs/). */
export function n8nScaleSection(results: N8nScaleResults): string[] {
  const m = results.machine;
  return [
    '## n8n, large inputs',
    '',
    `\`npm run bench:n8n-scale\`: n8n ${results.n8n} on ${m.cpu}, ${m.cores} cores, Node ${m.node}, ${m.date}.`,
    'Manual Trigger → Code (N items `{ to, body }`) → the node below; the median of the runs. Node time is',
    'n8n’s own `executionTime` of that node; wall time is the execution’s `stoppedAt − startedAt`; added RSS',
    'is n8n main’s peak during the execution minus its RSS just before. The sandbox has no rate wait and',
    'keeps every message; the calls column is what its ledger, read in pages, shows for each run.',
    '',
    `Method: ${results.method}.`,
    '',
    ...n8nScaleTableLines(results),
    '',
    ...ratioLines(results),
    '',
    '![n8n main’s added RSS against items, per node](benchmarks/n8n-scale-rss.svg)',
    '',
    '![The node’s execution time against items, per node](benchmarks/n8n-scale-time.svg)',
    '',
  ];
}
