import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { MessagingClient } from '../../src/client.ts';
import type { ClientOptions } from '../../src/client.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import type { Runtime } from '../../src/runtime.ts';
import { virtualRuntime } from './fake-runtime.ts';

/**
 * A tiny scripted HTTP server for answers the sandbox cannot give (decimal Retry-After, HTTP-date
 * Retry-After, a trickling body, an echoed key), with a client talking to it over real HTTP. The
 * client's sleeps are recorded on a virtual clock instead of waited, so a test asserts the waits the
 * client chose — never elapsed time.
 */
export interface Exchange {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export async function localServer(handle: (exchange: Exchange, res: ServerResponse, n: number) => void | Promise<void>) {
  const exchanges: Exchange[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const exchange = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      exchanges.push(exchange);
      void handle(exchange, res, exchanges.length);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function reply(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(typeof body === 'string' ? body : JSON.stringify(body));
}

/** Real HTTP, virtual time: `sleep` advances the clock and records the wait. */
export function recordedClient(url: string, options: Partial<ClientOptions> & { timeoutMs?: number; start?: number } = {}) {
  const dispatcher = new Agent({ connections: 4 });
  const clock = virtualRuntime(() => {
    throw new Error('the transport is real HTTP here');
  }, options.start ?? Date.now());
  const runtime: Runtime = { ...clock.runtime, transport: undiciTransport({ dispatcher, timeoutMs: options.timeoutMs }) };
  const client = new MessagingClient({ baseUrl: url, apiKey: 'sk_test_local_key_0001', runtime, limiters: new LimiterRegistry(), ...options });
  return { client, sleeps: clock.sleeps, close: () => dispatcher.close() };
}
