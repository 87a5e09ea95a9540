import { Agent } from 'undici';
import { MessagingClient } from '../../src/client.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import { fetchTransport } from '../../src/runtime/fetch-transport.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import type { Transport } from '../../src/runtime.ts';
import { virtualRuntime } from './fake-runtime.ts';
import { localServer, reply } from './local-server.ts';

/**
 * A request the transport refuses before any byte leaves (here: an API key pasted with a line break,
 * an invalid header value) was sent nothing, so it is `failed` at once — not retried five times and
 * reported `unknown`. Both Node transports, over real HTTP to a server that must see nothing.
 */
const BROKEN_KEY = 'sk_test_pasted\nwith_a_line_break';
const message = [{ channel: 'email', to: 'a@example.com', body: 'hi' }];

const transports: [string, () => { transport: Transport; close(): Promise<void> }][] = [
  ['undici', () => {
    const dispatcher = new Agent({ connections: 2 });
    return { transport: undiciTransport({ dispatcher }), close: () => dispatcher.close() };
  }],
  ['fetch', () => ({ transport: fetchTransport(), close: async () => undefined })],
];

async function setUp(make: () => { transport: Transport; close(): Promise<void> }) {
  const server = await localServer((_e, res) => reply(res, 200, { data: [{ index: 0, id: 'msg_1' }] }));
  const { transport, close } = make();
  let attempts = 0;
  const clock = virtualRuntime(() => {
    throw new Error('the transport is real HTTP here');
  });
  const runtime = {
    ...clock.runtime,
    transport: (req: Parameters<Transport>[0]) => {
      attempts += 1;
      return transport(req);
    },
  };
  const client = new MessagingClient({ baseUrl: server.url, apiKey: BROKEN_KEY, runtime, limiters: new LimiterRegistry() });
  return {
    client,
    server,
    attempts: () => attempts,
    sleeps: clock.sleeps,
    close: async () => {
      await close();
      await server.close();
    },
  };
}

describe.each(transports)('%s transport', (_name, make) => {
  test('a write refused before sending is failed after one attempt, and nothing reached the server', async () => {
    const t = await setUp(make);
    const out = await t.client.messages.sendBatch(message, { idempotencyKey: 'refused-1' });
    await t.close();
    expect(out).toMatchObject({ sent: 0, failed: 1, unknown: 0 });
    expect(out.results[0]).toMatchObject({ status: 'failed', error: { code: 'invalid_input', outcomeUnknown: false } });
    expect(t.attempts()).toBe(1);
    expect(t.sleeps).toEqual([]);
    expect(t.server.exchanges).toHaveLength(0);
    expect(JSON.stringify(out)).not.toContain('with_a_line_break');
    expect(out.results[0].status === 'failed' && out.results[0].error.message).toMatch(/nothing was sent/);
  });

  test('a read refused before sending throws invalid_input after one attempt', async () => {
    const t = await setUp(make);
    const error = await t.client.account.get().catch((e: unknown) => e);
    await t.close();
    expect(error).toMatchObject({ code: 'invalid_input', status: 0, outcomeUnknown: false });
    expect(String((error as Error).message)).not.toContain('with_a_line_break');
    expect(t.attempts()).toBe(1);
    expect(t.server.exchanges).toHaveLength(0);
  });
});
