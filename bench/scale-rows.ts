/**
 * The bench:scale rows, when bench/scale.ts (written by the scale work) has landed: its exported function
 * is called and each row read as processes, throughput share, 429 share, lost and duplicated. Rows may be
 * objects or the printed lines (`scale N=8: throughput 0.93 of ceiling, 429s 3.1 % of requests, lost 0, dup 0`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Row, ScaleRow } from './results.ts';

const LINE = /N\s*=\s*(\d+).*?throughput\s+([\d.]+).*?429s?\s+([\d.]+)\s*%.*?lost\s+(\d+).*?dup\w*\s+(\d+)/i;

function field(row: Record<string, unknown>, pattern: RegExp): { key: string; value: number } | undefined {
  const key = Object.keys(row).find((k) => pattern.test(k) && typeof row[k] === 'number');
  return key === undefined ? undefined : { key, value: row[key] as number };
}

/** One row, or undefined when it does not say processes, throughput and 429s. */
export function readScaleRow(row: unknown): ScaleRow | undefined {
  if (typeof row === 'string') {
    const m = LINE.exec(row);
    return m ? { processes: Number(m[1]), throughput: Number(m[2]), rate429: Number(m[3]) / 100, lost: Number(m[4]), dup: Number(m[5]) } : undefined;
  }
  if (!row || typeof row !== 'object') return undefined;
  const r = row as Record<string, unknown>;
  const processes = field(r, /^(n|processes|procs|workers)$/i);
  const throughput = field(r, /throughput/i);
  const rate = field(r, /429/);
  if (!processes || !throughput || !rate) return undefined;
  return {
    processes: processes.value,
    throughput: throughput.value,
    rate429: /percent|pct/i.test(rate.key) ? rate.value / 100 : rate.value,
    lost: field(r, /^lost/i)?.value ?? 0,
    dup: field(r, /^dup/i)?.value ?? 0,
  };
}

/** The rows of an earlier run kept as the baseline (bench/results-scale-before.json), when present. */
export function loadScaleBaseline(): ScaleRow[] | null {
  const file = join(process.cwd(), 'bench', 'results-scale-before.json');
  if (!existsSync(file)) return null;
  const rows = ((JSON.parse(readFileSync(file, 'utf8')) as { rows?: unknown[] }).rows ?? []).map(readScaleRow);
  return rows.length > 0 && rows.every((r) => r !== undefined) ? (rows as ScaleRow[]) : null;
}

export async function loadScaleRows(): Promise<ScaleRow[] | null> {
  const file = join(process.cwd(), 'bench', 'scale.ts');
  if (!existsSync(file)) return null;
  const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  // `runScale` by name; otherwise the one exported function whose name starts with `run`.
  const named = Object.entries(module).filter(([name, v]) => typeof v === 'function' && (name === 'runScale' || /^run/.test(name)));
  const run = (named.find(([name]) => name === 'runScale') ?? named[0])?.[1] as (() => Promise<unknown>) | undefined;
  if (!run) return null;
  const out = await run();
  const rows = (Array.isArray(out) ? out : ((out as { rows?: unknown[] })?.rows ?? [])).map(readScaleRow);
  return rows.every((r) => r !== undefined) && rows.length > 0 ? (rows as ScaleRow[]) : null;
}

export function scaleTableRows(rows: ScaleRow[] | null): Row[] {
  if (!rows) return [{ figure: 'bench:scale', ours: 'pending', reference: '', ratio: null }];
  return rows.map((r) => ({
    figure: `bench:scale N=${r.processes} (429s ${(r.rate429 * 100).toFixed(1)} % of requests, lost ${r.lost}, dup ${r.dup})`,
    ours: `${r.throughput.toFixed(2)} of ceiling`,
    reference: 'the key’s ceiling',
    ratio: r.throughput,
  }));
}
