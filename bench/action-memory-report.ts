/**
 * docs/benchmarks.md's "Action memory" section and its chart, from bench/results-action-memory-before.json
 * and bench/results-action-memory.json (`npm run bench:action-memory`), before → after side by side.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { lineChart } from './charts.ts';
import type { Series } from './charts.ts';
import { dryRatios } from './action-memory-results.ts';
import type { ActionMemoryResults, HeapCapRow, RealRow } from './action-memory-results.ts';

export interface ActionMemoryPair {
  before: ActionMemoryResults | null;
  after: ActionMemoryResults | null;
}

export function readActionMemory(root: string): ActionMemoryPair {
  const read = (name: string) => {
    const path = join(root, 'bench', name);
    return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as ActionMemoryResults) : null;
  };
  return { before: read('results-action-memory-before.json'), after: read('results-action-memory.json') };
}

const mb = (bytes: number) => `${Math.round(bytes / 1e6).toLocaleString('en-US')} MB`;
const times = (r: number | null | undefined) => (r === null || r === undefined ? '—' : `${r.toFixed(2)}×`);
const arrow = (before: string | undefined, after: string | undefined) => (before !== undefined && before === after ? `${after} (both)` : `${before ?? '—'} → ${after ?? '—'}`);

function heapCell(h: HeapCapRow | undefined): string | undefined {
  if (!h) return undefined;
  return h.completed ? `completed, ${mb(h.peakRss)}` : `failed (exit ${h.code}${h.crash ? `, ${h.crash}` : ''}) at ${mb(h.peakRss)}`;
}

function realCell(r: RealRow | undefined): string | undefined {
  return r && `${r.delivered.toLocaleString('en-US')} once, ${r.lost} lost, ${r.duplicates} dup.`;
}

const COLORS: Record<string, string> = { 'sync-contacts csv': '#1f6feb', 'sync-contacts jsonl': '#0a8f4a', 'batch csv': '#d1242f', 'batch jsonl': '#bf8700' };

/** RSS over input size for the dry runs: after solid, before dashed, and the 3× line the issue sets. */
export function actionMemoryChart(pair: ActionMemoryPair): string {
  const series: Series[] = [];
  for (const [results, dashed] of [[pair.after, false], [pair.before, true]] as const) {
    if (!results) continue;
    for (const key of new Set(results.dry.map((d) => `${d.mode} ${d.format}`))) {
      const rows = results.dry.filter((d) => `${d.mode} ${d.format}` === key && d.code === 0).sort((a, b) => a.fileBytes - b.fileBytes);
      if (rows.length) series.push({ name: `${key}, ${results.label}`, color: COLORS[key] ?? '#6e7781', dashed, points: rows.map((d) => [d.fileBytes / 1e6, d.peakRss / 1e6]) });
    }
  }
  const sizes = series.flatMap((s) => s.points.map((p) => p[0]));
  series.push({ name: 'goal at 50 MB: 3× the file', color: '#6e7781', dashed: true, points: [[Math.min(...sizes), 3 * Math.min(...sizes)], [Math.max(...sizes), 3 * Math.max(...sizes)]] });
  return lineChart({ title: 'The action’s peak RSS against its input file (dry runs)', xLabel: 'file (MB)', yLabel: 'peak RSS (MB)', series });
}

/** The section's Markdown lines (empty when nothing was measured). */
export function actionMemorySection(pair: ActionMemoryPair): string[] {
  const { before, after } = pair;
  const latest = after ?? before;
  if (!latest) return [];
  const out: string[] = [
    '## Action memory',
    '',
    '`npm run bench:action-memory` runs the bundle as the runner starts it (`node action/dist/index.js`, inputs as',
    '`INPUT_*`) under GNU `time -v` on seeded files it writes under /tmp and deletes, and reads the peak RSS.',
    `Before: ${before ? `${before.commit}, ${before.measuredAt}` : 'not measured'}. After: ${after ? `${after.commit}, ${after.measuredAt}` : 'not measured'}. Cells read before → after.`,
    '',
    '| dry run | format | file | peak RSS | RSS ÷ file |',
    '|---|---|---:|---:|---:|',
  ];
  const keyOf = (d: { mode: string; format: string; targetMB: number }) => `${d.mode} ${d.format} ${d.targetMB}`;
  const dryKeys = [...new Set([...(before?.dry ?? []), ...(after?.dry ?? [])].map(keyOf))];
  for (const key of dryKeys) {
    const b = before?.dry.find((d) => keyOf(d) === key);
    const a = after?.dry.find((d) => keyOf(d) === key);
    const d = (a ?? b)!;
    const cell = (r: typeof b) => r && (r.code === 0 ? mb(r.peakRss) : `exit ${r.code} at ${mb(r.peakRss)}`);
    out.push(`| ${d.mode} | ${d.format} | ${mb(d.fileBytes)} | ${arrow(cell(b), cell(a))} | ${arrow(b && times(b.peakRss / b.fileBytes), a && times(a.peakRss / a.fileBytes))} |`);
  }
  out.push('', '| targets | format | 200 MB peak ÷ 50 MB peak (≤ 1.5) | 50 MB peak ÷ file (≤ 3) |', '|---|---|---:|---:|');
  const rb = before ? dryRatios(before.dry) : [];
  const ra = after ? dryRatios(after.dry) : [];
  for (const key of [...new Set([...rb, ...ra].map((r) => `${r.mode} ${r.format}`))]) {
    const b = rb.find((r) => `${r.mode} ${r.format}` === key);
    const a = ra.find((r) => `${r.mode} ${r.format}` === key);
    out.push(`| ${(a ?? b)!.mode} | ${(a ?? b)!.format} | ${arrow(b && times(b.growth200over50), a && times(a.growth200over50))} | ${arrow(b && times(b.rssOverFile50), a && times(a.rssOverFile50))} |`);
  }
  out.push('', '| 310 MB dry run, `NODE_OPTIONS=--max-old-space-size=1792` | format | before | after |', '|---|---|---|---|');
  for (const h of [...new Map([...(before?.heapCap ?? []), ...(after?.heapCap ?? [])].map((r) => [`${r.mode} ${r.format}`, r])).values()]) {
    const find = (rows: HeapCapRow[] | undefined) => rows?.find((r) => r.mode === h.mode && r.format === h.format);
    out.push(`| ${h.mode} | ${h.format} | ${heapCell(find(before?.heapCap)) ?? '—'} | ${heapCell(find(after?.heapCap)) ?? '—'} |`);
  }
  out.push('', '| real run (sandbox) | format | file | peak RSS | ledger: rows delivered, lost, duplicates | refused last row |', '|---|---|---:|---:|---|---|');
  for (const key of [...new Set([...(before?.real ?? []), ...(after?.real ?? [])].map(keyOf))]) {
    const b = before?.real.find((d) => keyOf(d) === key);
    const a = after?.real.find((d) => keyOf(d) === key);
    const d = (a ?? b)!;
    const line = (r: RealRow | undefined) => r && `line ${r.refusedLine}, annotated ${r.annotatedLine === null ? 'nowhere' : `at ${r.annotatedLine}`}`;
    out.push(`| ${d.mode} | ${d.format} | ${mb(d.fileBytes)} | ${arrow(b && mb(b.peakRss), a && mb(a.peakRss))} | ${arrow(realCell(b), realCell(a))} | ${arrow(line(b), line(a))} |`);
  }
  const inc = (r: ActionMemoryResults | null): string | undefined => {
    const x = r?.incremental;
    return x ? `${x.rowsSent} rows sent, ${mb(x.peakRss)} (${times(x.peakRss / x.fileBytes)} the file)` : undefined;
  };
  if (latest.incremental) out.push('', `Incremental sync of a ${mb(latest.incremental.fileBytes)} contacts CSV (${latest.incremental.rows.toLocaleString('en-US')} rows), ${latest.incremental.edited} rows edited since the push's \`before\` commit: ${arrow(inc(before), inc(after))}.`);
  for (const format of ['json', 'yaml']) {
    const cell = (r: ActionMemoryResults | null) => {
      const l = r?.limit.find((x) => x.format === format);
      return l && `exit ${l.code}, ${l.requests} API calls, ${mb(l.peakRss)}${l.message ? `: “${l.message.replace(/\|/g, '\\|')}”` : ''}`;
    };
    const l = latest.limit.find((x) => x.format === format);
    if (l) out.push('', `A ${mb(l.fileBytes)} ${format.toUpperCase()} contacts file (real run, 1792 MB heap): ${arrow(cell(before), cell(after))}.`);
  }
  const both = (n: string) => Boolean(before?.notes.includes(n) && after?.notes.includes(n));
  const floor = after?.limit.find((l) => l.requests === 0 && l.code !== 0 && l.seconds < 5);
  if (floor) out.push('', `The process's floor: refusing a file before reading it, the bundle peaks at ${mb(floor.peakRss)} (after), so 3× a 50 MB file (150 MB) leaves about ${mb(150e6 - floor.peakRss)} for everything a run holds.`);
  const notes = [...(before?.notes ?? []).map((n) => `${both(n) ? 'Before and after' : 'Before'}: ${n}`), ...(after?.notes ?? []).filter((n) => !both(n)).map((n) => `After: ${n}`)];
  if (notes.length) out.push('', ...notes.map((n) => `- ${n}`));
  out.push('', '![Peak RSS against input size, dry runs](benchmarks/action-memory.svg)', '');
  return out;
}
