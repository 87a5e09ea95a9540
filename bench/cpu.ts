/** CPU per 500-message batch in the client process: our client against raw undici.request with the same JSON. */
import { randomUUID } from 'node:crypto';
import { Agent, request } from 'undici';
import { MessagingClient } from '../src/client.ts';
import { LimiterRegistry } from '../src/rate-limiter.ts';
import { nodeRuntime } from '../src/runtime/node-runtime.ts';
import { undiciTransport } from '../src/runtime/undici-transport.ts';
import { KEY, messages } from './counting-client.ts';
import type { Row } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const BATCHES = 300;
const ROUNDS = 10;

/** CPU ms (user + system) per call of `fn`, over `times` calls. */
async function cpuPerCall(fn: () => Promise<void>, times: number): Promise<number> {
  const before = process.cpuUsage();
  for (let i = 0; i < times; i++) await fn();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / times;
}

export async function measureCpuPerBatch(): Promise<Row[]> {
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
    await cpuPerCall(raw, 10);
    await cpuPerCall(ours, 10);
    // Interleaved rounds in alternating order, so drift (JIT, GC debt, the other core's load) hits both
    // alike; the median round of each resists a noisy round, and the ratio is of the two figures shown.
    const oursRounds: number[] = [];
    const rawRounds: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const oursFirst = round % 2 === 1;
      const a = await cpuPerCall(oursFirst ? ours : raw, BATCHES / ROUNDS);
      const b = await cpuPerCall(oursFirst ? raw : ours, BATCHES / ROUNDS);
      oursRounds.push(oursFirst ? a : b);
      rawRounds.push(oursFirst ? b : a);
    }
    const oursMs = Number(median(oursRounds).toFixed(2));
    const rawMs = Number(median(rawRounds).toFixed(2));
    return [{ figure: `CPU per 500-message batch (median of ${ROUNDS} interleaved rounds)`, ours: `${oursMs.toFixed(2)} ms`, reference: `${rawMs.toFixed(2)} ms raw undici.request`, ratio: Math.round((oursMs / rawMs) * 1000) / 1000 }];
  } finally {
    await dispatcher.close();
    sb.child.kill();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
