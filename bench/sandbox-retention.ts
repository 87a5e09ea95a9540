/**
 * Flat memory under a long run: `npm run bench:sandbox-retention` (or `node bench/sandbox-retention.ts`).
 * Starts the sandbox as a child process at its default retention, sends MESSAGES messages in batches of
 * 500 over HTTP (each batch under its own Idempotency-Key, as the clients send them), and prints the
 * child's RSS along the way. Then checks what must survive eviction: a replay of the first batch (inside
 * the idempotency window) replays, a resend of it without a key counts 500 duplicates, and the ledger read
 * in pages holds exactly the retained rows with the right totals.
 * Options: --messages <n> (default 1,000,000), --retain <n> (a config retain_messages instead of the
 * default; e.g. 1e9 to measure what a message costs when it is kept), --in-process (the sandbox runs in
 * this process; with node --expose-gc, as the npm script runs it, each sample is taken after a full GC
 * and also shows the live heap, which RSS hides behind V8's lazily collected garbage), --write (a run of
 * the defaults stores its figures in bench/results-sandbox-retention.json and rewrites docs/benchmarks.md).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { start } from '../sandbox/server.ts';
import { readResults, writeReport } from './report.ts';
import { machine } from './results.ts';
import { SANDBOX_RETENTION_RESULTS, type SandboxRetentionResults } from './sandbox-retention-report.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const { values } = parseArgs({ options: { messages: { type: 'string', default: '1000000' }, retain: { type: 'string' }, 'in-process': { type: 'boolean' }, write: { type: 'boolean', default: false } } });
const MESSAGES = Number(values.messages);
const BATCH = 500;
const IN_FLIGHT = 4;
const batches = Math.ceil(MESSAGES / BATCH);

const mb = (bytes: number): number => Math.round(bytes / 104857.6) / 10;

/** The sandbox's memory: RSS of the child from /proc (Linux); in process, after a full GC when exposed, with the live heap. */
function memory(pid: number | null): { rss: number; heap?: number; external?: number } {
  if (pid !== null) return { rss: mb(Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]!) * 1024) };
  (globalThis as { gc?: () => void }).gc?.();
  const m = process.memoryUsage();
  return { rss: mb(m.rss), heap: mb(m.heapUsed), external: mb(m.external) };
}

const shown = (m: { rss: number; heap?: number; external?: number }): string =>
  `RSS ${String(m.rss).padStart(6)} MB${m.heap === undefined ? '' : `  heap ${String(m.heap).padStart(6)} MB  external ${String(m.external).padStart(6)} MB`}`;

/** Batch `b`: 500 distinct messages, bodies the size of a short notification (~70 characters). */
function batchBody(b: number): string {
  const messages = Array.from({ length: BATCH }, (_, i) => {
    const n = b * BATCH + i;
    return { channel: 'whatsapp', to: `+49151${String(1_000_000 + (n % 9_000_000))}`, body: `Order ${n} has shipped: your parcel arrives on Tuesday. Track it in the app.` };
  });
  return JSON.stringify({ messages });
}

async function main(): Promise<void> {
  const config = {
    job_rows_per_second: 0,
    accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: 1e9 }],
    ...(values.retain === undefined ? {} : { retain_messages: Number(values.retain) }),
  };
  const sandbox = values['in-process'] ? { ...(await start({ port: 0, config })), child: null } : await startSandboxProcess(config);
  const pid = sandbox.child === null ? null : sandbox.child.pid!;
  const pool = new Pool(sandbox.origin, { connections: IN_FLIGHT, pipelining: 1 });
  const auth = { authorization: 'Bearer sk_test_demo_ok', 'content-type': 'application/json' };

  async function send(b: number, key: string | null): Promise<{ status: number; text: string; replay: boolean }> {
    const r = await pool.request({ method: 'POST', path: '/v1/messages/batch', headers: key === null ? auth : { ...auth, 'idempotency-key': key }, body: batchBody(b) });
    const text = await r.body.text();
    if (r.statusCode !== 200) throw new Error(`batch ${b}: ${r.statusCode} ${text.slice(0, 200)}`);
    return { status: r.statusCode, text, replay: r.headers['idempotent-replay'] === 'true' };
  }

  async function control(path: string): Promise<any> {
    const r = await pool.request({ method: 'GET', path });
    return JSON.parse(await r.body.text());
  }

  try {
    const t0 = performance.now();
    console.log(`sandbox ${pid === null ? 'in process' : `pid ${pid}`}, ${MESSAGES.toLocaleString('en')} messages in batches of ${BATCH}, retain_messages ${values.retain ?? 'default'}; at start ${shown(memory(pid))}`);
    const samples = new Map<number, ReturnType<typeof memory>>();
    let firstAnswer = '';
    let next = 0;
    const sendAll = async (): Promise<void> => {
      while (next < batches) {
        const b = next++;
        const r = await send(b, `bench-batch-${b}`);
        if (b === 0) firstAnswer = r.text;
        const done = (b + 1) * BATCH;
        if (done % 100_000 === 0) {
          const m = memory(pid);
          samples.set(done, m);
          console.log(`  ${done.toLocaleString('en').padStart(9)} messages  ${shown(m)}  ${((performance.now() - t0) / 1000).toFixed(0)} s`);
        }
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, sendAll));
    const seconds = (performance.now() - t0) / 1000;

    const replay = await send(0, 'bench-batch-0');
    await send(0, null);
    let rows = 0;
    let pages = 0;
    let after: string | null = null;
    let totals: any;
    do {
      const page: any = await control(`/__sandbox/ledger?limit=1000${after === null ? '' : `&after=${after}`}`);
      rows += page.data.length;
      pages++;
      after = page.next_cursor;
      totals = page.totals;
    } while (after !== null);
    const summary = await control('/__sandbox/ledger/summary');
    const perKey = Object.values(summary.messages_by_idempotency_key as Record<string, number>);

    const half = samples.get(Math.floor(MESSAGES / 2 / 100_000) * 100_000);
    const full = samples.get(Math.floor(MESSAGES / 100_000) * 100_000);
    console.log(`\nsent ${MESSAGES.toLocaleString('en')} messages in ${seconds.toFixed(0)} s (${Math.round(MESSAGES / seconds).toLocaleString('en')} messages/s)`);
    if (half !== undefined && full !== undefined) {
      console.log(`RSS at half ${half.rss} MB, at the end ${full.rss} MB: ${(full.rss / half.rss).toFixed(2)}× (goal ≤ 1.2×)`);
      if (half.heap !== undefined && full.heap !== undefined) {
        const live = (m: typeof half): number => m.heap! + m.external!;
        console.log(`live heap + external (buffers) after GC at half ${live(half).toFixed(1)} MB, at the end ${live(full).toFixed(1)} MB: ${(live(full) / live(half)).toFixed(2)}×`);
      }
    }
    console.log(`replay of batch 0 inside the window: Idempotent-Replay ${replay.replay}, same answer ${replay.text === firstAnswer}`);
    console.log(`resend of batch 0 without a key: duplicates_detected ${summary.duplicates_detected} (expected ${BATCH})`);
    console.log(`ledger in ${pages} pages: ${rows.toLocaleString('en')} rows = messages_retained ${totals.messages_retained.toLocaleString('en')}; totals.messages ${totals.messages.toLocaleString('en')} (expected ${(MESSAGES + BATCH).toLocaleString('en')}), evicted ${totals.messages_evicted.toLocaleString('en')}`);
    console.log(`per-key counts: ${perKey.length} keys, all ${BATCH}: ${perKey.every((n) => n === BATCH)}; idempotency keys held ${totals.idempotency_keys}`);
    const ok = replay.replay && replay.text === firstAnswer && summary.duplicates_detected === BATCH && rows === totals.messages_retained && totals.messages === MESSAGES + BATCH && perKey.length === batches && perKey.every((n) => n === BATCH);
    console.log(ok ? 'checks: all hold' : 'checks: FAILED');
    process.exitCode = ok ? 0 : 1;
    if (values.write) {
      // The page shows the sandbox as it runs by default: a child process at its default retention.
      if (values.retain !== undefined || values['in-process']) throw new Error('--write stores a run of the defaults only (no --retain, no --in-process)');
      const stored: SandboxRetentionResults = {
        machine: machine(),
        messages: MESSAGES,
        batch: BATCH,
        seconds: Math.round(seconds * 10) / 10,
        rss: [...samples].map(([messages, m]) => ({ messages, mb: m.rss })),
        replay: { replayed: replay.replay, sameAnswer: replay.text === firstAnswer },
        duplicatesDetected: summary.duplicates_detected,
        ledger: { pages, rows, retained: totals.messages_retained, messages: totals.messages, evicted: totals.messages_evicted },
        checks: ok,
      };
      const root = process.cwd();
      writeFileSync(join(root, SANDBOX_RETENTION_RESULTS), `${JSON.stringify(stored, null, 2)}\n`);
      writeReport(root, readResults(root));
      console.log(`Stored in ${SANDBOX_RETENTION_RESULTS}; docs/benchmarks.md rewritten.`);
    }
  } finally {
    await pool.close();
    if (sandbox.child === null) await sandbox.close();
    else sandbox.child.kill('SIGTERM');
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
