/** The "Action memory" section of docs/benchmarks.md: each row before → after, the targets' ratios, the chart's series. */
import { actionMemoryChart, actionMemorySection } from '../../bench/action-memory-report.ts';
import type { ActionMemoryResults, DryRow } from '../../bench/action-memory-results.ts';

const dry = (mode: DryRow['mode'], format: string, targetMB: number, peakMB: number, code = 0): DryRow => ({ mode, format, targetMB, fileBytes: targetMB * 1e6, rows: targetMB * 10_000, code, peakRss: peakMB * 1e6, seconds: 1 });
const results = (label: string, rows: DryRow[], extra: Partial<ActionMemoryResults> = {}): ActionMemoryResults => ({
  label,
  commit: label === 'before' ? 'aaaaaaa' : 'bbbbbbb',
  measuredAt: '2026-11-27T18:00',
  node: '24.0.0',
  notes: [],
  dry: rows,
  heapCap: [],
  real: [],
  incremental: null,
  limit: [],
  ...extra,
});

const before = results('before', [dry('batch', 'csv', 50, 700), dry('batch', 'csv', 200, 2600, 134)], {
  heapCap: [{ mode: 'batch', format: 'csv', fileBytes: 310e6, code: 134, signal: 'signal 6', completed: false, peakRss: 2.6e9, seconds: 9, crash: 'JavaScript heap out of memory' }],
});
const after = results('after', [dry('batch', 'csv', 50, 120), dry('batch', 'csv', 200, 150), dry('batch', 'jsonl', 50, 110)], {
  heapCap: [{ mode: 'batch', format: 'csv', fileBytes: 310e6, code: 0, signal: null, completed: true, peakRss: 160e6, seconds: 9 }],
});

test('each dry run reads before → after, a failed run by its exit code, a row measured only after with a dash before', () => {
  const page = actionMemorySection({ before, after }).join('\n');
  expect(page).toContain('| batch | csv | 50 MB | 700 MB → 120 MB | 14.00× → 2.40× |');
  expect(page).toContain('| batch | csv | 200 MB | exit 134 at 2,600 MB → 150 MB | 13.00× → 0.75× |');
  expect(page).toContain('| batch | jsonl | 50 MB | — → 110 MB | — → 2.20× |');
});

test('the targets: 200 MB ÷ 50 MB only from completed runs, and the 310 MB run under a 1792 MB heap', () => {
  const page = actionMemorySection({ before, after }).join('\n');
  expect(page).toContain('| batch | csv | — → 1.25× | 14.00× → 2.40× |');
  expect(page).toContain('| batch | csv | failed (exit 134, JavaScript heap out of memory) at 2,600 MB | completed, 160 MB |');
});

test('a cell the same before and after is written once', () => {
  const same = results('after', [dry('batch', 'csv', 50, 700)]);
  expect(actionMemorySection({ before, after: same }).join('\n')).toContain('| batch | csv | 50 MB | 700 MB (both) | 14.00× (both) |');
});

test('nothing measured, no section; the chart draws after solid, before dashed, and the 3× goal', () => {
  expect(actionMemorySection({ before: null, after: null })).toEqual([]);
  const svg = actionMemoryChart({ before, after });
  expect(svg).toContain('batch csv, after');
  expect(svg).toContain('batch csv, before');
  expect(svg).toContain('goal at 50 MB: 3× the file');
  expect(svg.match(/stroke-dasharray/g)).toHaveLength(4); // before's line, the goal's line, and their legend swatches
});
