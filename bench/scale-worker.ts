/**
 * One OS process of `npm run bench:scale`: the real client (its own limiter, the undici transport) on a
 * key other processes share. Per round it waits for the common start, sends distinct messages in small
 * batch calls from two loops (the client's default concurrency) until the deadline, and prints what it
 * sent and, per call, the status and the rate window (X-RateLimit-Reset) the server counted it in.
 * Protocol: prints `ready`; then for each stdin line `<baseUrl> <startMs> <deadlineMs>` runs one round
 * with a fresh client (nothing learnt carries over) and prints its report as one JSON line.
 * Run: node scale-worker.ts <apiKey> <worker> <perCall>
 */
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { MessagingClient } from '../src/client.ts';
import { LimiterRegistry } from '../src/rate-limiter.ts';
import { nodeRuntime } from '../src/runtime/node-runtime.ts';
import { undiciTransport } from '../src/runtime/undici-transport.ts';
import type { WorkerCall, WorkerReport } from './scale.ts';

const [apiKey, workerArg, perCallArg] = process.argv.slice(2);
const worker = Number(workerArg);
const perCall = Number(perCallArg);
const LOOPS = 2;

async function round(baseUrl: string, start: number, deadline: number): Promise<WorkerReport> {
  const runtime = nodeRuntime(undiciTransport());
  const send = runtime.transport;
  const calls: WorkerCall[] = [];
  runtime.transport = async (req) => {
    const res = await send(req);
    const reset = Number(res.headers['x-ratelimit-reset']);
    calls.push({ status: res.status, reset: Number.isFinite(reset) ? reset : undefined });
    return res;
  };
  const client = new MessagingClient({ baseUrl, apiKey, runtime, limiters: new LimiterRegistry(), maxWaitMs: 120_000 });
  const report: WorkerReport = { worker, bodies: [], results: [], calls };
  const loop = async (id: number) => {
    for (let call = 0; Date.now() < deadline; call++) {
      const messages = Array.from({ length: perCall }, (_, i) => {
        const body = `w${worker}-l${id}-c${call}-m${i}`;
        report.bodies.push(body);
        return { channel: 'email', to: `w${worker}.${id}.${call}.${i}@example.com`, body };
      });
      const out = await client.messages.sendBatch(messages);
      for (const r of out.results) report.results.push({ body: messages[r.index]!.body, status: r.status, id: r.status === 'sent' ? r.id : undefined });
    }
  };
  if (start > Date.now()) await sleep(start - Date.now());
  await Promise.all(Array.from({ length: LOOPS }, (_, id) => loop(id)));
  return report;
}

async function main(): Promise<void> {
  process.stdout.write('ready\n');
  for await (const line of createInterface({ input: process.stdin })) {
    const [baseUrl, start, deadline] = line.trim().split(' ');
    const report = await round(baseUrl!, Number(start), Number(deadline));
    process.stdout.write(`${JSON.stringify(report)}\n`);
  }
}

void main();
