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

interface WorkerReport {
  worker: number;
  results: { index: number; status: string; id?: string; code?: string }[];
  wire: { sentAt: number; receivedAt?: number; status?: number; retryAfter?: number }[];
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
  sandbox = await startSandbox({ window_seconds: 1, accounts: [{ id: 'acc_demo', rate_limit: 5 }] });
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
  // The processes did contend for the key (the test would prove nothing otherwise).
  expect(seen429).toBeGreaterThan(0);
}, 120_000);
