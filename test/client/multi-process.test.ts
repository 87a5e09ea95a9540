import { ledgerRows } from '../support/ledger-rows.ts';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox/server.ts';
import { startSandbox } from './sandbox-client.ts';

/**
 * Four client processes share one key with a one-second window and a low ceiling. No memory is shared:
 * the server's headers and 429s are the only coordination. 0 lost, 0 duplicated, and every 429 is
 * honoured. The limiter paces well enough that natural 429s are rare, so the sandbox also forces some
 * (every FORCED_EVERY-th batch call that passes the window, FORCED times, with a Retry-After longer than
 * the window): the test always has 429s to check.
 */
const WORKERS = 4;
const PER_WORKER = 400;
const BATCH = 50;
const RATE_LIMIT = 5;
const FORCED = 4;
const FORCED_EVERY = 5;
const FORCED_RETRY_AFTER = 2;

interface WorkerReport {
  worker: number;
  results: { index: number; status: string; id?: string; code?: string }[];
  /** Every answer, in the order the requests went out. */
  wire: { status?: number; retryAfter?: number; reset?: number }[];
}

function runWorker(sandbox: Sandbox, worker: number): Promise<WorkerReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--disable-warning=MODULE_TYPELESS_PACKAGE_JSON', join(__dirname, 'workers', 'send-worker.ts'), sandbox.url, 'sk_test_demo_ok', String(worker), String(PER_WORKER), String(BATCH)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code !== 0) return reject(new Error(`worker ${worker} exited ${code}: ${err}`));
      try {
        resolve(JSON.parse(out));
      } catch (e) {
        reject(new Error(`worker ${worker} printed no report: ${err} ${out.slice(0, 200)}`));
      }
    });
  });
}

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ window_seconds: 1, accounts: [{ id: 'acc_demo', rate_limit: RATE_LIMIT }] });
  sandbox.control.addFault({ route: 'POST /v1/messages/batch', kind: 'rate_limit_429', every: FORCED_EVERY, count: FORCED, retry_after: FORCED_RETRY_AFTER });
});
afterAll(() => sandbox.close());

test('§8 four processes on one key: 0 lost, 0 duplicated, every 429 (forced or not) honoured on the sandbox clock', async () => {
  const reports = await Promise.all(Array.from({ length: WORKERS }, (_, w) => runWorker(sandbox, w)));
  const ledger = ledgerRows(sandbox).messages;
  const summary = sandbox.control.summary();

  // 0 lost: every input of every worker is sent, and the ledger holds exactly those messages.
  for (const report of reports) {
    expect(report.results).toHaveLength(PER_WORKER);
    expect(report.results.filter((r) => r.status !== 'sent')).toEqual([]);
  }
  expect(ledger).toHaveLength(WORKERS * PER_WORKER);
  // 0 duplicated.
  expect(summary.duplicates_detected).toBe(0);
  const bodyById = new Map(ledger.map((m) => [m.id, m.body]));
  for (const report of reports) for (const r of report.results) expect(bodyById.get(r.id!)).toBe(`w${report.worker}-${r.index}`);

  // The forced 429s happened, and the workers saw them (a natural 429 says Retry-After: 1 here).
  expect(sandbox.control.faults()[0]!.fired).toBe(FORCED);
  const refusals = reports.flatMap((report) => report.wire.filter((w) => w.status === 429));
  expect(refusals.filter((w) => w.retryAfter === FORCED_RETRY_AFTER)).toHaveLength(FORCED);

  // Every 429 honoured, on the sandbox's clock: X-RateLimit-Reset names the one-second window the
  // sandbox counted a request in. A 429 read at sandbox time t (in the window ending at `reset`, so
  // t >= reset - 1) with Retry-After r lets the process's next request arrive no sooner than t + r
  // (the client counts r from when the answer reached it, after t; both read the machine's clock),
  // hence in a window ending at reset + r or later. Coming back at the window's reset alone, or at
  // once, lands earlier.
  const early: string[] = [];
  for (const report of reports) {
    report.wire.forEach((answer, i) => {
      if (answer.status !== 429) return;
      const next = report.wire[i + 1];
      const due = answer.reset! + answer.retryAfter!;
      if (next?.reset === undefined || next.reset < due) early.push(`worker ${report.worker}: 429 in window ${answer.reset} (Retry-After ${answer.retryAfter}), next request in window ${next?.reset}, due ${due}`);
    });
  }
  expect(early).toEqual([]);

  // The processes did contend for the key: some window was full (its counted calls reached the
  // ceiling, or it refused one) and counted calls of more than one process. The sandbox counts a 200
  // and a forced 429; a natural 429 is not counted.
  const counted = new Map<number, { calls: number; workers: Set<number>; refused: boolean }>();
  for (const report of reports) {
    for (const w of report.wire) {
      const window = counted.get(w.reset!) ?? { calls: 0, workers: new Set<number>(), refused: false };
      counted.set(w.reset!, window);
      if (w.status === 429 && w.retryAfter !== FORCED_RETRY_AFTER) window.refused = true;
      else {
        window.calls += 1;
        window.workers.add(report.worker);
      }
    }
  }
  const contended = [...counted.values()].filter((w) => w.workers.size > 1 && (w.calls === RATE_LIMIT || w.refused));
  expect(contended.length).toBeGreaterThan(0);
}, 120_000);
