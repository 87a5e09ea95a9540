/**
 * Issue 21's figures, on the real clock (a measure script, not a test):
 * 1. requests a client makes in 2 s against a server whose every answer is a 429 asking for 0 s
 *    (Retry-After: 0, a reset already past);
 * 2. 429s met by 20 parallel calls on a fresh client against the sandbox with a ceiling of 10 a window;
 * 3. how far past its 2 s timeout an importAndWait runs when every poll hangs (transport timeout 5 s).
 * Run: node --disable-warning=MODULE_TYPELESS_PACKAGE_JSON bench/hostile-inputs.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { MessagingClient } from '../src/client.ts';
import { LimiterRegistry } from '../src/rate-limiter.ts';
import { nodeRuntime } from '../src/runtime/node-runtime.ts';
import { undiciTransport } from '../src/runtime/undici-transport.ts';
import { start } from '../sandbox/server.ts';

async function zeroSecond429Loop(): Promise<number> {
  let requests = 0;
  const body = JSON.stringify({ error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'slow down' } });
  const server = createServer((_req, res) => {
    requests += 1;
    const past = String(Math.floor(Date.now() / 1000) - 5);
    res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '0', 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': past });
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const dispatcher = new Agent({ connections: 4 });
  const abort = new AbortController();
  const client = new MessagingClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk_bench', runtime: nodeRuntime(undiciTransport({ dispatcher })), limiters: new LimiterRegistry() });
  const call = client.account.get({ signal: abort.signal }).catch(() => undefined);
  await new Promise((resolve) => setTimeout(resolve, 2000));
  const counted = requests;
  abort.abort();
  await call;
  await dispatcher.close();
  server.closeAllConnections();
  server.close();
  return counted;
}

async function coldBurst(): Promise<{ requests: number; rateLimited: number }> {
  const sandbox = await start({ port: 0, config: { window_seconds: 60, accounts: [{ id: 'acc_demo', rate_limit: 10 }] } });
  const dispatcher = new Agent({ connections: 32 });
  const runtime = nodeRuntime(undiciTransport({ dispatcher }));
  const inner = runtime.transport;
  let requests = 0;
  let rateLimited = 0;
  runtime.transport = async (req) => {
    requests += 1;
    const res = await inner(req);
    if (res.status === 429) rateLimited += 1;
    return res;
  };
  const client = new MessagingClient({ baseUrl: sandbox.url, apiKey: 'sk_test_demo_ok', runtime, limiters: new LimiterRegistry(), maxWaitMs: 0 });
  await Promise.all(Array.from({ length: 20 }, () => client.account.get().catch(() => undefined)));
  await dispatcher.close();
  await sandbox.close();
  return { requests, rateLimited };
}

async function hangingPollOverrun(): Promise<number> {
  const queued = { object: 'job', id: 'job_1', type: 'contacts.bulk', status: 'queued', total: 1, processed: 0, failed: 0, errors: [], created_at: '2030-01-01T00:00:00Z', completed_at: null };
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      res.writeHead(202, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ data: queued }));
    } // GET /jobs/job_1: never answered
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const dispatcher = new Agent({ connections: 4 });
  const client = new MessagingClient({ baseUrl: `http://127.0.0.1:${port}/v1`, apiKey: 'sk_bench', runtime: nodeRuntime(undiciTransport({ dispatcher, timeoutMs: 5000 })), limiters: new LimiterRegistry() });
  const started = Date.now();
  await client.contacts.importAndWait([{ email: 'a@example.com' }], { timeoutMs: 2000 });
  const overrun = Date.now() - started - 2000;
  await dispatcher.close();
  server.closeAllConnections();
  server.close();
  return overrun;
}

async function main(): Promise<void> {
  const loop = await zeroSecond429Loop();
  console.log(`0-second 429 loop: ${loop} requests in 2 s`);
  const burst = await coldBurst();
  console.log(`20 parallel calls on a cold client (ceiling 10): ${burst.rateLimited} × 429 in ${burst.requests} requests`);
  const overrun = await hangingPollOverrun();
  console.log(`importAndWait (timeout 2 s), every poll hanging: ended ${(overrun / 1000).toFixed(1)} s past its timeout`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
