/**
 * `npm run bench`: every figure in one run, each beside its reference. Prints one table, writes
 * bench/results.json (with the machine) and regenerates docs/benchmarks.md from it.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { measureBundleSize, measureColdStart } from './action-figures.ts';
import { measureCalls } from './calls.ts';
import { measureCpuPerBatch } from './cpu.ts';
import { measureJobWaits } from './job-wait.ts';
import type { Results, Row } from './results.ts';
import { machine } from './results.ts';
import { writeReport } from './report.ts';
import { measureRssGrowth } from './rss.ts';
import { runScale } from './scale.ts';
import { loadScaleBaseline, scaleTableRows } from './scale-rows.ts';
import { measureThroughput } from './throughput.ts';

async function step<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
  const t0 = performance.now();
  const out = await fn();
  process.stderr.write(`  ${name}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  return out;
}

function printTable(rows: Row[]): void {
  const cells = rows.map((r) => [r.figure, r.ours, r.reference, r.ratio === null ? '' : r.ratio.toFixed(3)]);
  const head = ['figure', 'ours', 'reference', 'ratio'];
  const widths = head.map((_, c) => Math.max(...[head, ...cells].map((r) => r[c]!.length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 3 ? cell.padStart(widths[c]!) : cell.padEnd(widths[c]!))).join(' | ');
  console.log([line(head), widths.map((w) => '-'.repeat(w)).join('-|-'), ...cells.map(line)].join('\n'));
}

async function main(): Promise<void> {
  const root = process.cwd();
  const calls = await step('calls', measureCalls);
  const throughput = await step('throughput at a ceiling', measureThroughput);
  const cpu = await step('CPU per batch', measureCpuPerBatch);
  const jobs = await step('job waits', measureJobWaits);
  const rss = await step('RSS paging', measureRssGrowth);
  const cold = await step('cold start', measureColdStart);
  const bundle = measureBundleSize();
  const scale = await step('bench:scale', () => runScale());
  const results: Results = {
    machine: machine(),
    rows: [...calls.rows, ...throughput.rows, ...cpu, ...jobs.rows, ...rss, ...cold, ...bundle, ...scaleTableRows(scale)],
    charts: { calls: calls.chart, throughput: throughput.chart, jobs: jobs.chart, scale, scaleBefore: loadScaleBaseline() },
  };
  printTable(results.rows);
  writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeReport(root, results);
  console.log(`\nWrote bench/results.json and docs/benchmarks.md (${results.machine.cpu}, ${results.machine.cores} cores, Node ${results.machine.node}).`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
