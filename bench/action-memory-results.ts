/**
 * The action-memory bench's figures: the shape saved to bench/results-action-memory*.json, the ratios
 * issue 24 sets targets for, and the rows as printed tables.
 */
export type Mode = 'sync-contacts' | 'batch';

export interface DryRow {
  mode: Mode;
  format: string;
  /** The size asked for, in MB (10⁶ bytes). */
  targetMB: number;
  fileBytes: number;
  rows: number;
  code: number;
  peakRss: number;
  seconds: number;
}

export interface HeapCapRow {
  mode: Mode;
  format: string;
  fileBytes: number;
  code: number;
  signal: string | null;
  completed: boolean;
  peakRss: number;
  seconds: number;
  crash?: string;
}

export interface RealRow {
  mode: Mode;
  format: string;
  targetMB: number;
  fileBytes: number;
  rows: number;
  code: number;
  peakRss: number;
  seconds: number;
  delivered: number;
  lost: number;
  duplicates: number;
  strays: number;
  requests: number;
  /** The refused last row: the line the file has it on, and the line of the bundle's annotation for it. */
  refusedLine: number;
  annotatedLine: number | null;
}

export interface IncrementalRow {
  fileBytes: number;
  rows: number;
  edited: number;
  code: number;
  peakRss: number;
  seconds: number;
  rowsSent: number;
  requests: number;
}

export interface LimitRow {
  format: string;
  fileBytes: number;
  code: number;
  peakRss: number;
  seconds: number;
  requests: number;
  message: string;
}

export interface ActionMemoryResults {
  label: string;
  commit: string;
  measuredAt: string;
  node: string;
  notes: string[];
  dry: DryRow[];
  heapCap: HeapCapRow[];
  real: RealRow[];
  incremental: IncrementalRow | null;
  limit: LimitRow[];
}

export interface DryRatios {
  mode: Mode;
  format: string;
  /** Peak RSS of the 200 MB dry run ÷ that of the 50 MB one (target ≤ 1.5). */
  growth200over50: number | null;
  /** Peak RSS of the 50 MB dry run ÷ the file's size (target ≤ 3). */
  rssOverFile50: number | null;
}

const MB = 1e6;

/** The two ratios per mode and format, from the dry runs that completed (null when one is missing or failed). */
export function dryRatios(rows: readonly DryRow[]): DryRatios[] {
  const groups = new Map<string, DryRow[]>();
  for (const r of rows) groups.set(`${r.mode}\n${r.format}`, [...(groups.get(`${r.mode}\n${r.format}`) ?? []), r]);
  return [...groups.values()].map((g) => {
    const at = (mb: number) => g.find((r) => r.targetMB === mb && r.code === 0);
    const r50 = at(50);
    const r200 = at(200);
    return {
      mode: g[0]!.mode,
      format: g[0]!.format,
      growth200over50: r50 && r200 ? r200.peakRss / r50.peakRss : null,
      rssOverFile50: r50 ? r50.peakRss / r50.fileBytes : null,
    };
  });
}

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;
const x = (ratio: number | null) => (ratio === null ? '—' : `${ratio.toFixed(2)}×`);
const n = (v: number) => v.toLocaleString('en-US');

/** The results as printed tables (Markdown, so they paste into docs/benchmarks.md). */
export function resultTables(r: ActionMemoryResults): string {
  const out: string[] = [`Action memory (${r.label}, ${r.commit}, Node ${r.node}, ${r.measuredAt})`, ''];
  out.push('| mode | format | file | rows | exit | peak RSS | RSS / file | s |', '|---|---|---:|---:|---:|---:|---:|---:|');
  for (const d of r.dry) out.push(`| ${d.mode} dry run | ${d.format} | ${mb(d.fileBytes)} | ${n(d.rows)} | ${d.code} | ${mb(d.peakRss)} | ${x(d.peakRss / d.fileBytes)} | ${d.seconds.toFixed(1)} |`);
  out.push('', '| mode | format | 200 MB ÷ 50 MB peak (≤ 1.5) | 50 MB peak ÷ file (≤ 3) |', '|---|---|---:|---:|');
  for (const q of dryRatios(r.dry)) out.push(`| ${q.mode} | ${q.format} | ${x(q.growth200over50)} | ${x(q.rssOverFile50)} |`);
  if (r.heapCap.length) {
    out.push('', '| --max-old-space-size=1792, dry run | format | file | completed | exit | peak RSS |', '|---|---|---:|---|---:|---:|');
    for (const h of r.heapCap) out.push(`| ${h.mode} | ${h.format} | ${mb(h.fileBytes)} | ${h.completed ? 'yes' : `no${h.crash ? ` (${h.crash})` : ''}`} | ${h.code}${h.signal ? ` (${h.signal})` : ''} | ${mb(h.peakRss)} |`);
  }
  if (r.real.length) {
    out.push('', '| real run | format | file | rows | exit | peak RSS | RSS / file | delivered once | lost | duplicates | last row refused at line → annotated at |', '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|');
    for (const d of r.real)
      out.push(`| ${d.mode} | ${d.format} | ${mb(d.fileBytes)} | ${n(d.rows)} | ${d.code} | ${mb(d.peakRss)} | ${x(d.peakRss / d.fileBytes)} | ${n(d.delivered)} | ${d.lost} | ${d.duplicates} | ${d.refusedLine} → ${d.annotatedLine ?? 'none'} |`);
  }
  if (r.incremental) {
    const i = r.incremental;
    out.push('', `Incremental sync (push with before), ${mb(i.fileBytes)} contacts CSV, ${n(i.rows)} rows, ${i.edited} edited: exit ${i.code}, rows sent ${i.rowsSent}, ${i.requests} API calls, peak RSS ${mb(i.peakRss)} (${x(i.peakRss / i.fileBytes)} the file), ${i.seconds.toFixed(1)} s`);
  }
  for (const l of r.limit) out.push('', `Over-limit ${l.format} contacts file, ${mb(l.fileBytes)}: exit ${l.code}, API calls ${l.requests}, peak RSS ${mb(l.peakRss)}, ${l.seconds.toFixed(1)} s: ${l.message || '(no error)'}`);
  for (const note of r.notes) out.push('', `Note: ${note}`);
  return out.join('\n');
}
