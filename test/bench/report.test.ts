/** docs/benchmarks.md is generated: it must be what bench/report.ts makes of the committed bench/results.json (and bench/results-n8n-scale.json, bench/results-sandbox-retention.json). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readN8nScaleResults, readResults, renderReport } from '../../bench/report.ts';
import { readSandboxRetention } from '../../bench/sandbox-retention-report.ts';

const ROOT = join(__dirname, '..', '..');

test('docs/benchmarks.md and its charts are in step with bench/results.json', () => {
  const results = readResults(ROOT);
  const { page, files } = renderReport(results, readN8nScaleResults(ROOT), readSandboxRetention(ROOT));
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
