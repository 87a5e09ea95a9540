/**
 * CPU per 500-message batch in the client process: our client against raw undici.request with the same
 * JSON. A row of `npm run bench`; on its own, `npm run bench:cpu` prints every round and replaces only the
 * CPU row in bench/results.json and docs/benchmarks.md. `node bench/cpu.ts --only ours|raw` sends batches
 * of one side alone, for `node --cpu-prof`.
 */
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Agent, request } from 'undici';
import { MessagingClient } from '../src/client.ts';
import { LimiterRegistry } from '../src/rate-limiter.ts';
import { nodeRuntime } from '../src/runtime/node-runtime.ts';
import { undiciTransport } from '../src/runtime/undici-transport.ts';
import { KEY, messages } from './counting-client.ts';
import { readResults, writeReport } from './report.ts';
import type { Row } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const ROUNDS = 201;
const BATCHES_PER_ROUND = 20;
/**
 * Batches each side sends before the rounds. V8's young generation grows from 1 to 64 MB over the first
 * ~1,500 batches (`--trace-gc`), scavenging far more often while it does; with 30 warm-up batches those
 * scavenges fell in the first rounds, and 61 rounds left the median moving by ±0.03 between runs.
 */
const WARM_UP = 300;
const CPU_FIGURE = 'CPU per 500-message batch';

/**
 * CPU ms (user + system) per call of `fn`, over `times` calls: of the whole process (the figure), and of
 * the main thread alone (printed beside it: V8's GC helper threads are the difference).
 */
async function cpuPerCall(fn: () => Promise<void>, times: number): Promise<{ process: number; main: number }> {
  const before = process.cpuUsage();
  const mainBefore = process.threadCpuUsage();
  for (let i = 0; i < times; i++) await fn();
  const used = process.cpuUsage(before);
  const main = process.threadCpuUsage(mainBefore);
  return { process: (used.user + used.system) / 1000 / times, main: (main.user + main.system) / 1000 / times };
}

interface Sides {
  ours: () => Promise<void>;
  raw: () => Promise<void>;
}

/** Runs `use` with both senders against one sandbox child process (its CPU is not ours). */
async function withSides<T>(use: (sides: Sides) => Promise<T>): Promise<T> {
  const sb = await startSandboxProcess({ job_rows_per_second: 0, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: 1e9 }] });
  const dispatcher = new Agent({ connections: 1 });
  const batch = messages(500, 'cpu');
  try {
    const client = new MessagingClient({ baseUrl: sb.url, apiKey: KEY, runtime: nodeRuntime(undiciTransport({ dispatcher })), limiters: new LimiterRegistry(), concurrency: 1 });
    const ours = async () => {
      const out = await client.messages.sendBatch(batch);
      if (out.sent !== 500) throw new Error(`ours sent ${out.sent}`);
    };
    const raw = async () => {
      const res = await request(`${sb.url}/messages/batch`, {
        method: 'POST',
        dispatcher,
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
        body: JSON.stringify({ messages: batch }),
      });
      const body = JSON.parse(await res.body.text()) as { data: unknown[] };
      if (res.statusCode !== 200 || body.data.length !== 500) throw new Error('raw failed');
    };
    return await use({ ours, raw });
  } finally {
    await dispatcher.close();
    sb.child.kill();
  }
}

export interface CpuRounds {
  ours: number[];
  raw: number[];
  /** ours ÷ raw of each round. */
  ratios: number[];
  /** ours ÷ raw of each round, main thread only. */
  mainRatios: number[];
}

/**
 * Interleaved rounds in alternating order, so drift (JIT, GC debt, the other core's load) hits both
 * alike; each round's ratio compares the two sides under the same conditions, and the median of those
 * ratios resists a noisy round.
 */
async function measureRounds(): Promise<CpuRounds> {
  return withSides(async ({ ours, raw }) => {
    await cpuPerCall(raw, WARM_UP);
    await cpuPerCall(ours, WARM_UP);
    const out: CpuRounds = { ours: [], raw: [], ratios: [], mainRatios: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const oursFirst = round % 2 === 1;
      const a = await cpuPerCall(oursFirst ? ours : raw, BATCHES_PER_ROUND);
      const b = await cpuPerCall(oursFirst ? raw : ours, BATCHES_PER_ROUND);
      const [o, r] = oursFirst ? [a, b] : [b, a];
      out.ours.push(o.process);
      out.raw.push(r.process);
      out.ratios.push(o.process / r.process);
      out.mainRatios.push(o.main / r.main);
    }
    return out;
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The first and third quartile (nearest rank), the spread a median is quoted with. */
function quartiles(values: number[]): [number, number] {
  const sorted = [...values].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
  return [at(0.25), at(0.75)];
}

export function cpuRow(rounds: CpuRounds): Row {
  const [q1, q3] = quartiles(rounds.ratios);
  return {
    figure: `${CPU_FIGURE} (median ours ÷ raw of ${rounds.ratios.length} interleaved rounds after ${WARM_UP} warm-up batches each; quartiles ${q1.toFixed(2)}–${q3.toFixed(2)})`,
    ours: `${median(rounds.ours).toFixed(2)} ms`,
    reference: `${median(rounds.raw).toFixed(2)} ms raw undici.request`,
    ratio: Math.round(median(rounds.ratios) * 1000) / 1000,
  };
}

export async function measureCpuPerBatch(): Promise<Row[]> {
  return [cpuRow(await measureRounds())];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { only: { type: 'string' }, batches: { type: 'string', default: '400' }, write: { type: 'boolean', default: false } } });
  if (values.only !== undefined) {
    if (values.only !== 'ours' && values.only !== 'raw') throw new Error('--only takes ours or raw');
    const side = values.only;
    const ms = await withSides(async (sides) => cpuPerCall(sides[side], Number(values.batches)));
    console.log(`${side}: ${ms.process.toFixed(3)} ms CPU per batch (main thread ${ms.main.toFixed(3)} ms) over ${values.batches} batches`);
    return;
  }
  const rounds = await measureRounds();
  rounds.ratios.forEach((r, i) => console.log(`round ${String(i + 1).padStart(2)}: ours ${rounds.ours[i]!.toFixed(3)} ms, raw ${rounds.raw[i]!.toFixed(3)} ms, ratio ${r.toFixed(3)} (main thread ${rounds.mainRatios[i]!.toFixed(3)})`));
  const row = cpuRow(rounds);
  console.log(`\n${row.figure}: ${row.ours} against ${row.reference}, ratio ${row.ratio!.toFixed(3)} (min ${Math.min(...rounds.ratios).toFixed(3)}, max ${Math.max(...rounds.ratios).toFixed(3)}); main thread alone ${median(rounds.mainRatios).toFixed(3)}, quartiles ${quartiles(rounds.mainRatios).map((q) => q.toFixed(2)).join('–')}`);
  if (!values.write) return;
  const root = process.cwd();
  const results = readResults(root);
  const at = results.rows.findIndex((r) => r.figure.startsWith(CPU_FIGURE));
  if (at < 0) throw new Error('bench/results.json has no CPU row to replace');
  results.rows[at] = row;
  // readResults adds the action-memory pair for the page; it is stored in its own file, not here.
  const { actionMemory: _fromItsOwnFile, ...stored } = results;
  writeFileSync(join(root, 'bench', 'results.json'), `${JSON.stringify(stored, null, 2)}\n`);
  writeReport(root, results);
  console.log('Replaced the CPU row in bench/results.json and docs/benchmarks.md.');
}

if (process.argv[1]?.endsWith('cpu.ts')) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
