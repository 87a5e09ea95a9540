/** docs/benchmarks.md is generated: it must be what bench/report.ts makes of the committed bench/results.json. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readResults, renderReport } from '../../bench/report.ts';
import { readScaleRow, scaleTableRows } from '../../bench/scale-rows.ts';

const ROOT = join(__dirname, '..', '..');

test('docs/benchmarks.md and its charts are in step with bench/results.json', () => {
  const results = readResults(ROOT);
  const { page, files } = renderReport(results);
  expect(readFileSync(join(ROOT, 'docs', 'benchmarks.md'), 'utf8')).toBe(page);
  expect(readdirSync(join(ROOT, 'docs', 'benchmarks')).sort()).toEqual(Object.keys(files).sort());
  for (const [name, svg] of Object.entries(files)) expect(readFileSync(join(ROOT, 'docs', 'benchmarks', name), 'utf8')).toBe(svg);
});

test('the page states the machine and carries every row of the table', () => {
  const results = readResults(ROOT);
  const { page } = renderReport(results);
  expect(page).toContain(results.machine.cpu);
  expect(page).toContain(`Node ${results.machine.node}`);
  for (const row of results.rows) expect(page).toContain(`| ${row.figure.replace(/\|/g, '\\|')} | ${row.ours} |`);
});

test('bench:scale rows are read from the printed line or an object; absent rows show as pending', () => {
  expect(readScaleRow('scale N=8: throughput 0.93 of ceiling, 429s 3.1 % of requests, lost 0, dup 0')).toEqual({ processes: 8, throughput: 0.93, rate429: 0.031, lost: 0, dup: 0 });
  expect(readScaleRow({ n: 4, throughput: 0.97, rate429: 0.02, lost: 0, dup: 1 })).toEqual({ processes: 4, throughput: 0.97, rate429: 0.02, lost: 0, dup: 1 });
  expect(readScaleRow({ processes: 2, throughputRatio: 0.99, percent429: 1.5 })).toEqual({ processes: 2, throughput: 0.99, rate429: 0.015, lost: 0, dup: 0 });
  expect(readScaleRow('something else')).toBeUndefined();
  expect(scaleTableRows(null)).toEqual([{ figure: 'bench:scale', ours: 'pending', reference: '', ratio: null }]);
});
