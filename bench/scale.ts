/**
 * Many processes on one key: N OS processes, each the real client with its own limiter, share one
 * sandbox key with a low ceiling and a short window. No memory is shared; the server's headers and
 * 429s are all they coordinate by. `runScale` returns one row per N (for `npm run bench` too);
 * bench/scale-cli.ts prints them and writes the JSON and the chart.
 *
 * Throughput: calls the server counted in the measured windows ÷ (ceiling × windows), binned by the
 * X-RateLimit-Reset each answer carries, so it is the server's own count per window. The processes
 * start together at a window boundary, cold (nothing learnt), and send until the last measured window
 * ends; calls the limiter holds past it fall into a later window and are not counted (but are checked
 * in the ledger like every other).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { start } from '../sandbox/server.ts';
import type { Sandbox } from '../sandbox/server.ts';

export interface WorkerCall {
  status: number;
  /** The X-RateLimit-Reset of the answer: which window the server counted the call in. */
  reset?: number;
}

export interface WorkerReport {
  worker: number;
  /** Every message body the worker handed to the client (all distinct across workers). */
  bodies: string[];
  results: { body: string; status: string; id?: string }[];
  calls: WorkerCall[];
}

export interface ScaleOptions {
  processes: number[];
  windowSeconds: number;
  /** Calls per window for the key. */
  limit: number;
  /** Windows measured per N. */
  windows: number;
  /** Messages per batch call (small: the bench measures calls, not payloads). */
  perCall: number;
}

export interface ScaleRow {
  processes: number;
  /** Counted calls in the measured windows ÷ (limit × windows). */
  throughput: number;
  /** 429 answers ÷ all answers in the measured windows. */
  rate429: number;
  requests: number;
  rejected: number;
  /** Inputs a worker handed over that the ledger does not hold exactly once as sent. */
  lost: number;
  /** Ledger rows beyond one per distinct message. */
  dup: number;
  /** Per-process share of the counted calls, lowest and highest (fair: 1/N each). */
  minShare: number;
  maxShare: number;
}

export const DEFAULT_SCALE: ScaleOptions = { processes: [1, 2, 4, 8], windowSeconds: 2, limit: 40, windows: 4, perCall: 5 };

const KEY = 'sk_test_demo_ok';
const WORKER = join(process.cwd(), 'bench', 'scale-worker.ts');

interface Child {
  ready: Promise<void>;
  begin(startMs: number, deadlineMs: number): void;
  report: Promise<WorkerReport>;
}

function spawnWorker(url: string, worker: number, perCall: number): Child {
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', WORKER, url, KEY, String(worker), String(perCall)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  let markReady: () => void;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (out.startsWith('ready\n')) markReady();
  });
  const report = new Promise<WorkerReport>((resolve, reject) => {
    child.on('close', (code) => {
      const line = out.split('\n').filter(Boolean).pop() ?? '';
      if (code !== 0 || !line.startsWith('{')) return reject(new Error(`scale worker ${worker} exited ${code}`));
      resolve(JSON.parse(line) as WorkerReport);
    });
  });
  return { ready, report, begin: (startMs, deadlineMs) => child.stdin.end(`${startMs} ${deadlineMs}\n`) };
}

/** Lost and duplicated, from the ledger: each worker's bodies are distinct, so each must be there once. */
function ledgerCheck(sandbox: Sandbox, reports: WorkerReport[]): { lost: number; dup: number } {
  const rows = sandbox.control.ledger().messages;
  const count = new Map<string, number>();
  for (const row of rows) count.set(row.body, (count.get(row.body) ?? 0) + 1);
  const reported = new Map(reports.flatMap((r) => r.results.map((x) => [x.body, x] as const)));
  let lost = 0;
  for (const body of reports.flatMap((r) => r.bodies)) {
    if (count.get(body) !== 1 || reported.get(body)?.status !== 'sent') lost += 1;
  }
  const dup = rows.length - count.size + sandbox.control.summary().duplicates_detected;
  return { lost, dup };
}

async function runOne(processes: number, options: ScaleOptions): Promise<ScaleRow> {
  const sandbox = await start({ port: 0, config: { window_seconds: options.windowSeconds, job_rows_per_second: 0, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: options.limit }] } });
  try {
    const children = Array.from({ length: processes }, (_, w) => spawnWorker(sandbox.url, w, options.perCall));
    await Promise.all(children.map((c) => c.ready));
    // Start together just after a window boundary (sandbox windows are aligned to unix time).
    const windowMs = options.windowSeconds * 1000;
    const first = Math.ceil((Date.now() + 200) / windowMs);
    const deadline = (first + options.windows) * windowMs;
    for (const c of children) c.begin(first * windowMs + 5, deadline);
    const reports = await Promise.all(children.map((c) => c.report));

    const measured = (call: WorkerCall) => call.reset !== undefined && call.reset * 1000 > first * windowMs && call.reset * 1000 <= deadline;
    const counted = reports.map((r) => r.calls.filter((c) => measured(c) && c.status !== 429).length);
    const answers = reports.flatMap((r) => r.calls.filter(measured));
    const rejected = answers.filter((c) => c.status === 429).length;
    const total = counted.reduce((a, b) => a + b, 0);
    const { lost, dup } = ledgerCheck(sandbox, reports);
    return {
      processes,
      throughput: total / (options.limit * options.windows),
      rate429: answers.length ? rejected / answers.length : 0,
      requests: answers.length,
      rejected,
      lost,
      dup,
      minShare: total ? Math.min(...counted) / total : 0,
      maxShare: total ? Math.max(...counted) / total : 0,
    };
  } finally {
    await sandbox.close();
  }
}

export async function runScale(options: ScaleOptions = DEFAULT_SCALE): Promise<ScaleRow[]> {
  const rows: ScaleRow[] = [];
  for (const n of options.processes) rows.push(await runOne(n, options));
  return rows;
}

/** `scale N=8: throughput 0.93 of ceiling, 429s 3.1 % of requests, lost 0, dup 0` */
export function formatScaleRow(row: ScaleRow): string {
  return `scale N=${row.processes}: throughput ${row.throughput.toFixed(2)} of ceiling, 429s ${(row.rate429 * 100).toFixed(1)} % of requests, lost ${row.lost}, dup ${row.dup}`;
}
