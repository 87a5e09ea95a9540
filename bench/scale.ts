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
import { ledgerRows } from '../test/support/ledger-rows.ts';
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
  /** Per measured window: calls counted and 429s. */
  perWindow: { counted: number; rejected: number }[];
}

export const DEFAULT_SCALE: ScaleOptions = { processes: [1, 2, 4, 8], windowSeconds: 2, limit: 40, windows: 3, perCall: 5 };

const KEY = 'sk_test_demo_ok';
const WORKER = join(process.cwd(), 'bench', 'scale-worker.ts');

/** A worker process kept for every round: spawning 8 Node processes costs seconds on 2 cores. */
interface Worker {
  ready: Promise<void>;
  round(baseUrl: string, startMs: number, deadlineMs: number): Promise<WorkerReport>;
  stop(): void;
}

function spawnWorker(worker: number, perCall: number): Worker {
  const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', WORKER, KEY, String(worker), String(perCall)], { stdio: ['pipe', 'pipe', 'inherit'] });
  let buffered = '';
  const waiting: ((line: string) => void)[] = [];
  const lines: string[] = [];
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString();
    for (let at = buffered.indexOf('\n'); at >= 0; at = buffered.indexOf('\n')) {
      const line = buffered.slice(0, at);
      buffered = buffered.slice(at + 1);
      const next = waiting.shift();
      if (next) next(line);
      else lines.push(line);
    }
  });
  const exited = new Promise<never>((_, reject) => child.on('exit', (code) => reject(new Error(`scale worker ${worker} exited ${code}`))));
  exited.catch(() => undefined);
  const nextLine = () => Promise.race([exited, new Promise<string>((resolve) => (lines.length ? resolve(lines.shift()!) : waiting.push(resolve)))]);
  return {
    ready: nextLine().then(() => undefined),
    round: async (baseUrl, startMs, deadlineMs) => {
      child.stdin.write(`${baseUrl} ${startMs} ${deadlineMs}\n`);
      return JSON.parse(await nextLine()) as WorkerReport;
    },
    stop: () => child.stdin.end(),
  };
}

/** Lost and duplicated, from the ledger (every row retained: see start()): each worker's bodies are distinct, so each must be there once. */
function ledgerCheck(sandbox: Sandbox, reports: WorkerReport[]): { lost: number; dup: number } {
  const rows = ledgerRows(sandbox).messages;
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

async function runOne(workers: Worker[], options: ScaleOptions): Promise<ScaleRow> {
  const processes = workers.length;
  const sandbox = await start({ port: 0, config: { window_seconds: options.windowSeconds, job_rows_per_second: 0, retain_messages: 1e9, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: options.limit }] } });
  try {
    // Start together just after a window boundary (sandbox windows are aligned to unix time).
    const windowMs = options.windowSeconds * 1000;
    const first = Math.ceil((Date.now() + 200) / windowMs);
    const deadline = (first + options.windows) * windowMs;
    const reports = await Promise.all(workers.map((w) => w.round(sandbox.url, first * windowMs + 5, deadline)));

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
      perWindow: Array.from({ length: options.windows }, (_, w) => {
        const inWindow = answers.filter((c) => c.reset! * 1000 === (first + w + 1) * windowMs);
        return { counted: inWindow.filter((c) => c.status !== 429).length, rejected: inWindow.filter((c) => c.status === 429).length };
      }),
    };
  } finally {
    await sandbox.close();
  }
}

export async function runScale(options: ScaleOptions = DEFAULT_SCALE): Promise<ScaleRow[]> {
  const workers = Array.from({ length: Math.max(...options.processes) }, (_, w) => spawnWorker(w, options.perCall));
  try {
    await Promise.all(workers.map((w) => w.ready));
    const rows: ScaleRow[] = [];
    for (const n of options.processes) rows.push(await runOne(workers.slice(0, n), options));
    return rows;
  } finally {
    for (const w of workers) w.stop();
  }
}

/** `scale N=8: throughput 0.93 of ceiling, 429s 3.1 % of requests, lost 0, dup 0` */
export function formatScaleRow(row: ScaleRow): string {
  return `scale N=${row.processes}: throughput ${row.throughput.toFixed(2)} of ceiling, 429s ${(row.rate429 * 100).toFixed(1)} % of requests, lost ${row.lost}, dup ${row.dup}`;
}
