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
    // alike; the median of the per-round ratios resists a noisy round.
    const ratios: number[] = [];
    let rawMs = 0;
    let oursMs = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const oursFirst = round % 2 === 1;
      const a = await cpuPerCall(oursFirst ? ours : raw, BATCHES / ROUNDS);
      const b = await cpuPerCall(oursFirst ? raw : ours, BATCHES / ROUNDS);
      const [o, r] = oursFirst ? [a, b] : [b, a];
      rawMs += r / ROUNDS;
      oursMs += o / ROUNDS;
      ratios.push(o / r);
    }
    ratios.sort((x, y) => x - y);
    const median = (ratios[ROUNDS / 2 - 1]! + ratios[ROUNDS / 2]!) / 2;
    return [{ figure: `CPU per 500-message batch (median of ${ROUNDS} interleaved rounds)`, ours: `${oursMs.toFixed(2)} ms`, reference: `${rawMs.toFixed(2)} ms raw undici.request`, ratio: Math.round(median * 1000) / 1000 }];
  } finally {
    await dispatcher.close();
    sb.child.kill();
  }
}
