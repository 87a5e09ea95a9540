import { spawn } from 'node:child_process';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox/server.ts';
import { startSandbox } from './sandbox-client.ts';

/**
 * Four client processes share one key with a short, low rate window. No memory is shared: the server's
 * headers and 429s are the only coordination. 0 lost, 0 duplicated, and after every 429 the process
 * that got it sends nothing until its Retry-After has passed.
 */
const WORKERS = 4;
const PER_WORKER = 400;
const BATCH = 50;
const RATE_LIMIT = 5;

interface WorkerReport {
  worker: number;
  results: { index: number; status: string; id?: string; code?: string }[];
  wire: { sentAt: number; receivedAt?: number; status?: number; retryAfter?: number; reset?: number }[];
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
});
afterAll(() => sandbox.close());

test('§8 four processes on one key: 0 lost, 0 duplicated, every 429 honoured', async () => {
  const reports = await Promise.all(Array.from({ length: WORKERS }, (_, w) => runWorker(sandbox, w)));
  const ledger = sandbox.control.ledger().messages;
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

  // Every 429 honoured: no request leaves that process before its Retry-After has passed.
  let seen429 = 0;
  for (const report of reports) {
    for (const refused of report.wire.filter((w) => w.status === 429)) {
      seen429 += 1;
      const notBefore = refused.receivedAt! + refused.retryAfter! * 1000;
      const early = report.wire.filter((w) => w.sentAt > refused.receivedAt! && w.sentAt < notBefore);
      expect(early).toEqual([]);
    }
  }
  // The processes did contend for the key (the test would prove nothing otherwise): some window was
  // spent to its ceiling by calls of more than one process. (429s are not required: the limiter paces
  // processes that share a key so that few or none happen; this used to assert at least one.)
  const byWindow = new Map<number, Set<number>>();
  const countedByWindow = new Map<number, number>();
  for (const report of reports) {
    for (const w of report.wire.filter((x) => x.status === 200 && x.reset !== undefined)) {
      byWindow.set(w.reset!, (byWindow.get(w.reset!) ?? new Set()).add(report.worker));
      countedByWindow.set(w.reset!, (countedByWindow.get(w.reset!) ?? 0) + 1);
    }
  }
  const contended = [...byWindow].filter(([reset, workers]) => workers.size > 1 && countedByWindow.get(reset) === RATE_LIMIT);
  expect(contended.length).toBeGreaterThan(0);
  console.log(`multi-process: ${seen429} × 429 over ${reports.reduce((s, r) => s + r.wire.length, 0)} requests`);
}, 120_000);
