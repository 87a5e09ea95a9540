/**
 * One OS process of the multi-process test: sends its share of messages through its own client (its
 * own limiter) on a key other processes share, and prints what happened as JSON on stdout: its results,
 * and every answer in the order its requests went out (status, Retry-After, X-RateLimit-Reset: the
 * window the sandbox counted the request in, on the sandbox's clock).
 * Run: node send-worker.ts <baseUrl> <apiKey> <worker> <messages> <batchSize>
 */
import { MessagingClient } from '../../../src/client.ts';
import { nodeRuntime } from '../../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../../src/runtime/undici-transport.ts';

const [baseUrl, apiKey, workerArg, countArg, batchArg] = process.argv.slice(2);
const worker = Number(workerArg);
const count = Number(countArg);
const batchSize = Number(batchArg);

const runtime = nodeRuntime(undiciTransport());
const send = runtime.transport;
const wire: { status?: number; retryAfter?: number; reset?: number }[] = [];
runtime.transport = async (req) => {
  const entry: (typeof wire)[number] = {};
  wire.push(entry);
  const res = await send(req);
  entry.status = res.status;
  if (res.headers['retry-after'] !== undefined) entry.retryAfter = Number(res.headers['retry-after']);
  if (res.headers['x-ratelimit-reset'] !== undefined) entry.reset = Number(res.headers['x-ratelimit-reset']);
  return res;
};

const client = new MessagingClient({ baseUrl, apiKey, runtime, concurrency: 1, maxWaitMs: 120_000 });
const messages = Array.from({ length: count }, (_, i) => ({ channel: 'email', to: `w${worker}-${i}@example.com`, body: `w${worker}-${i}` }));

async function main(): Promise<void> {
  const results = [];
  // One logical send per batch-sized slice, so the processes interleave call by call.
  for (let offset = 0; offset < count; offset += batchSize) {
    const out = await client.messages.sendBatch(messages.slice(offset, offset + batchSize), { idempotencyKey: `worker-${worker}-${offset}` });
    for (const r of out.results) results.push({ index: offset + r.index, status: r.status, id: r.status === 'sent' ? r.id : undefined, code: r.status === 'sent' ? undefined : r.error.code });
  }
  process.stdout.write(JSON.stringify({ worker, results, wire }));
}

void main();
