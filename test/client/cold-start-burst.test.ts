import { Agent } from 'undici';
import { start } from '../../sandbox/server.ts';
import { MessagingClient } from '../../src/client.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import type { Runtime } from '../../src/runtime.ts';
import { localServer, reply } from './local-server.ts';

/**
 * A fresh client knows nothing of the rate window. 20 parallel calls on it used to go at once and meet
 * 10 × 429 against a ceiling of 10; now the first call learns the window and the others wait for its
 * answer. The sandbox over real HTTP, its clock held still so the window cannot roll over mid-test;
 * with no wait allowed (maxWaitMs 0), the calls the window has no room for end without being sent.
 */
const LIMIT = 10;

test('20 parallel calls on a cold client against a ceiling of 10 meet no 429: 10 go, 10 wait (here: not allowed to)', async () => {
  const now = Date.now();
  const sandbox = await start({ port: 0, clock: () => now, config: { window_seconds: 60, accounts: [{ id: 'acc_demo', rate_limit: LIMIT }] } });
  const dispatcher = new Agent({ connections: 32 });
  const transport = undiciTransport({ dispatcher });
  const statuses: number[] = [];
  const runtime: Runtime = {
    transport: async (req) => {
      const res = await transport(req);
      statuses.push(res.status);
      return res;
    },
    sleep: async () => undefined,
    now: () => now,
    random: () => 0.5,
  };
  const client = new MessagingClient({ baseUrl: sandbox.url, apiKey: 'sk_test_demo_ok', runtime, limiters: new LimiterRegistry(), maxWaitMs: 0 });
  const results = await Promise.allSettled(Array.from({ length: 20 }, () => client.account.get()));
  await dispatcher.close();
  await sandbox.close();
  expect(statuses.filter((s) => s === 429)).toHaveLength(0);
  expect(statuses).toEqual(Array(LIMIT).fill(200));
  expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(LIMIT);
  for (const r of results.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'rate_limit_wait_exceeded' });
});

test('a cold client’s first call that gets no answer hands the first turn on: the others still go', async () => {
  // Nothing listens on the port: every call fails, none waits forever for a first answer.
  const probe = await start({ port: 0 });
  const url = probe.url;
  await probe.close();
  const dispatcher = new Agent({ connections: 4 });
  const runtime: Runtime = { transport: undiciTransport({ dispatcher }), sleep: async () => undefined, now: () => 0, random: () => 0.5 };
  const client = new MessagingClient({ baseUrl: url, apiKey: 'sk_test_demo_ok', runtime, limiters: new LimiterRegistry(), retry: { maxRetries: 0 } });
  const results = await Promise.allSettled(Array.from({ length: 5 }, () => client.account.get()));
  await dispatcher.close();
  expect(results.map((r) => r.status)).toEqual(Array(5).fill('rejected'));
  for (const r of results) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'transport_error' });
});

test('a call waiting for a cold client’s first answer can be cancelled: it ends aborted, and the first call still completes', async () => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  const server = await localServer(async (_e, res) => {
    await held;
    reply(res, 200, { data: { rate_limit: 60 } });
  });
  const dispatcher = new Agent({ connections: 4 });
  const runtime: Runtime = { transport: undiciTransport({ dispatcher }), sleep: async () => undefined, now: () => 0, random: () => 0.5 };
  const client = new MessagingClient({ baseUrl: server.url, apiKey: 'sk_test_demo_ok', runtime, limiters: new LimiterRegistry() });
  const first = client.account.get();
  const controller = new AbortController();
  const second = client.account.get({ signal: controller.signal }).catch((e: unknown) => e);
  await new Promise((resolve) => setImmediate(resolve));
  controller.abort();
  expect(await second).toMatchObject({ code: 'aborted' });
  release();
  await expect(first).resolves.toEqual({ rate_limit: 60 });
  await dispatcher.close();
  await server.close();
  expect(server.exchanges).toHaveLength(1);
});
