/**
 * One OS process of `npm run bench:scale`: the real client (its own limiter, the undici transport) on a
 * key other processes share. Waits for the common start, sends distinct messages in small batch calls
 * from two loops (the client's default concurrency) until the deadline, and prints on stdout what it
 * sent and, per call, the status and the rate window (X-RateLimit-Reset) the server counted it in.
 * Protocol: prints `ready`, reads `<startMs> <deadlineMs>` on stdin, prints its report as one JSON line.
 * Run: node scale-worker.ts <baseUrl> <apiKey> <worker> <perCall>
 */
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import { MessagingClient } from '../src/client.ts';
import { nodeRuntime } from '../src/runtime/node-runtime.ts';
import { undiciTransport } from '../src/runtime/undici-transport.ts';

import type { WorkerCall, WorkerReport } from './scale.ts';

const [baseUrl, apiKey, workerArg, perCallArg] = process.argv.slice(2);
const worker = Number(workerArg);
const perCall = Number(perCallArg);
const LOOPS = 2;

const runtime = nodeRuntime(undiciTransport());
const send = runtime.transport;
const calls: WorkerCall[] = [];
runtime.transport = async (req) => {
  const res = await send(req);
  const reset = Number(res.headers['x-ratelimit-reset']);
  calls.push({ status: res.status, reset: Number.isFinite(reset) ? reset : undefined });
  return res;
};
const client = new MessagingClient({ baseUrl, apiKey, runtime, maxWaitMs: 120_000 });

async function loop(id: number, deadline: number, report: WorkerReport): Promise<void> {
  for (let call = 0; Date.now() < deadline; call++) {
    const messages = Array.from({ length: perCall }, (_, i) => {
      const body = `w${worker}-l${id}-c${call}-m${i}`;
      report.bodies.push(body);
      return { channel: 'email', to: `w${worker}.${id}.${call}.${i}@example.com`, body };
    });
    const out = await client.messages.sendBatch(messages);
    for (const r of out.results) report.results.push({ body: messages[r.index]!.body, status: r.status, id: r.status === 'sent' ? r.id : undefined });
  }
}

async function main(): Promise<void> {
  const report: WorkerReport = { worker, bodies: [], results: [], calls };
  process.stdout.write('ready\n');
  const [line] = (await once(process.stdin, 'data')) as [Buffer];
  const [start, deadline] = line.toString().trim().split(' ').map(Number) as [number, number];
  process.stdin.destroy();
  if (start > Date.now()) await sleep(start - Date.now());
  await Promise.all(Array.from({ length: LOOPS }, (_, id) => loop(id, deadline, report)));
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

void main();
