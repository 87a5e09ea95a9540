/**
 * docs/benchmarks.md and its charts (docs/benchmarks/*.svg), generated from bench/results.json; never
 * edited by hand. `npm run bench` regenerates them; `node bench/report.ts` does so from the committed JSON.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { actionMemoryChart, actionMemorySection, readActionMemory } from './action-memory-report.ts';
import type { ActionMemoryPair } from './action-memory-report.ts';
import { lineChart } from './charts.ts';
import { POLL_BOUND_FORMULA, pollBound } from './job-wait.ts';
import { N8N_SCALE_RESULTS, n8nScaleCharts, n8nScaleSection, type N8nScaleResults } from './n8n-scale-report.ts';
import { readSandboxRetention, sandboxRetentionSection, type SandboxRetentionResults } from './sandbox-retention-report.ts';
import type { Point, Results, Row } from './results.ts';

const OURS = '#1f6feb';
const OTHER = '#d1242f';
const BOUND = '#6e7781';

export function tableLines(rows: Row[]): string[] {
  const cells = (r: Row) => [r.figure, r.ours, r.reference, r.ratio === null ? '' : r.ratio.toFixed(3)];
  return ['| figure | ours | reference | ratio |', '|---|---|---|---:|', ...rows.map((r) => `| ${cells(r).map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`)];
}

function charts(results: Results): Record<string, string> {
  const { calls, throughput, jobs, scale, scaleBefore } = results.charts;
  const files: Record<string, string> = {
    'calls.svg': lineChart({
      title: 'Calls against messages sent (batch)',
      xLabel: 'messages',
      yLabel: 'HTTP calls',
      xLog: true,
      yLog: true,
      series: [
        { name: 'our node (≤500 per call)', color: OURS, points: calls.items.map((n, i) => [n, calls.ours[i]!]) },
        { name: 'naive: one call per item', color: OTHER, dashed: true, points: calls.items.map((n, i) => [n, calls.naive[i]!]) },
      ],
    }),
    'throughput.svg': lineChart({
      title: `Messages accepted at a ceiling of ${throughput.ceilingPerSecond} msg/s, one process`,
      xLabel: 'seconds',
      yLabel: 'messages accepted',
      series: [
        { name: 'our client (paced by the headers)', color: OURS, points: throughput.ours },
        { name: 'naive sender (429s only)', color: OTHER, points: throughput.naive },
        { name: 'ceiling', color: BOUND, dashed: true, points: [[0, 0], [Math.max(...throughput.ours.map((p) => p[0])), throughput.ceilingPerSecond * Math.max(...throughput.ours.map((p) => p[0]))]] },
      ],
    }),
    'job-polls.svg': lineChart({
      title: 'Polls per job against its duration (worst of the jitter draws)',
      xLabel: 'job duration (s)',
      yLabel: 'polls',
      xLog: true,
      series: [
        { name: 'our waiter', color: OURS, points: jobs.map((j) => [j.durationS, j.polls]) },
        { name: 'previous waiter (×2 to 20 s)', color: OTHER, points: jobs.map((j) => [j.durationS, j.previousPolls]) },
        { name: POLL_BOUND_FORMULA, color: BOUND, dashed: true, points: jobs.map((j) => [j.durationS, pollBound(j.durationS)]) },
      ],
    }),
    'job-lag.svg': lineChart({
      title: 'Detection lag as a share of the job’s duration',
      xLabel: 'job duration (s)',
      yLabel: 'lag ÷ duration',
      xLog: true,
      series: [
        { name: 'our waiter', color: OURS, points: jobs.map((j) => [j.durationS, j.lagS / j.durationS]) },
        { name: 'previous waiter (×2 to 20 s)', color: OTHER, points: jobs.map((j) => [j.durationS, j.previousLagS / j.durationS]) },
        { name: 'goal: 0.25', color: BOUND, dashed: true, points: jobs.map((j) => [j.durationS, 0.25]) },
      ],
    }),
  };
  files['scale-429.svg'] = lineChart({
    title: '429s as a share of requests, one key shared by N processes',
    xLabel: 'processes',
    yLabel: '429s ÷ requests',
    series: [
      { name: 'bench:scale', color: OURS, points: scale.map((r) => [r.processes, r.rate429]) },
      ...(scaleBefore ? [{ name: 'before: each process paces only itself', color: OTHER, points: scaleBefore.map((r): Point => [r.processes, r.rate429]) }] : []),
      { name: 'goal at N=8: 0.05', color: BOUND, dashed: true, points: scale.map((r) => [r.processes, 0.05]) },
    ],
  });
  return files;
}

/** bench/results.json and, read beside it, the action-memory bench's own before and after files. */
export type ReportInput = Results & { actionMemory?: ActionMemoryPair };

/** The page and its SVG files (by name, under docs/benchmarks/), all from `results` (and `n8nScale`, `sandboxRetention`, when measured) alone. */
export function renderReport(results: ReportInput, n8nScale: N8nScaleResults | null = null, sandboxRetention: SandboxRetentionResults | null = null): { page: string; files: Record<string, string> } {
  const files = { ...charts(results), ...(n8nScale ? n8nScaleCharts(n8nScale) : {}) };
  const memory = results.actionMemory ?? { before: null, after: null };
  if (memory.before || memory.after) files['action-memory.svg'] = actionMemoryChart(memory);
  const m = results.machine;
  const img = (name: string, alt: string) => `![${alt}](benchmarks/${name})`;
  const page = [
    '# Benchmarks',
    '',
    '<!-- Generated by bench/report.ts from bench/results.json: do not edit; run `npm run bench`. -->',
    '',
    `Measured on ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB memory, Node ${m.node} (${m.platform}), ${m.date}.`,
    'Every figure is a ratio against a reference measured in the same run, side by side; the sandbox runs as',
    'a child process so our figures are the client’s own. `npm run bench` takes a few minutes and rewrites',
    'this page. The bench reports; no test gates on its numbers.',
    '',
    ...tableLines(results.rows),
    '',
    '## Calls against items',
    '',
    'A batch call carries up to 500 messages and counts as one call against the rate ceiling.',
    '',
    img('calls.svg', 'Calls against messages, our node and one call per item'),
    '',
    '## Throughput at a ceiling',
    '',
    'One process, a ceiling of a few calls per short window: our client paces on `X-RateLimit-Remaining`',
    'and `X-RateLimit-Reset`; the naive sender fires until refused and waits out `Retry-After`.',
    '',
    img('throughput.svg', 'Messages accepted against time at a rate ceiling'),
    '',
    '## Job polling',
    '',
    'The waiter polls at once, then doubles its delay from 1 s, but never sleeps past the end that the job’s',
    'own counters (`processed` of `total`) forecast, plus 5 %. While the counters give no forecast, each',
    'delay stays within 0.2 of the time already waited. A `Retry-After` on `GET /jobs/{id}` decides alone.',
    'Why the forecast: a cap of 0.2 × the time waited alone bounds the lag for any job, but makes the delays',
    'grow ×1.2 per poll, not ×2 (about 30 polls for a 5 min job); the counters let the delays keep doubling.',
    'Virtual clock, a job whose counters move steadily (as the sandbox’s do), worst of the jitter draws.',
    '',
    img('job-polls.svg', 'Polls against job duration'),
    '',
    img('job-lag.svg', 'Detection lag against job duration'),
    '',
    '## Many processes on one key',
    '',
    img('scale-429.svg', '429 share against process count'),
    '',
    ...actionMemorySection(memory),
    ...(n8nScale ? ['', ...n8nScaleSection(n8nScale)] : []),
    // The n8n section ends with a blank line (the page's last newline); without it, one is needed here.
    ...(sandboxRetention ? [...(n8nScale ? [] : ['']), ...sandboxRetentionSection(sandboxRetention)] : []),
  ].join('\n');
  return { page, files };
}

export function writeReport(root: string, results: ReportInput): void {
  const { page, files } = renderReport({ ...results, actionMemory: results.actionMemory ?? readActionMemory(root) }, readN8nScaleResults(root), readSandboxRetention(root));
  mkdirSync(join(root, 'docs', 'benchmarks'), { recursive: true });
  writeFileSync(join(root, 'docs', 'benchmarks.md'), page);
  for (const [name, svg] of Object.entries(files)) writeFileSync(join(root, 'docs', 'benchmarks', name), svg);
}

export function readResults(root: string): ReportInput {
  return { ...(JSON.parse(readFileSync(join(root, 'bench', 'results.json'), 'utf8')) as Results), actionMemory: readActionMemory(root) };
}

/** bench/results-n8n-scale.json (`npm run bench:n8n-scale`), or null before it was first run. */
export function readN8nScaleResults(root: string): N8nScaleResults | null {
  const file = join(root, N8N_SCALE_RESULTS);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as N8nScaleResults) : null;
}

if (process.argv[1]?.endsWith('report.ts')) writeReport(process.cwd(), readResults(process.cwd()));
