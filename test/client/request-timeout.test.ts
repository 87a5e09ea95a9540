import { Agent } from 'undici';
import { fetchTransport } from '../../src/runtime/fetch-transport.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import type { Transport } from '../../src/runtime.ts';
import { localServer } from './local-server.ts';

/**
 * The request timeout bounds the whole attempt, body included: a server that answers at once and then
 * trickles its body a byte at a time (each byte well inside any idle timeout) is cut off, for both
 * transports. Asserted by what the server saw (the connection closed before the body was out), not by
 * elapsed time.
 */
const BODY = JSON.stringify({ data: { rate_limit: 60, padding: 'x'.repeat(40) } });

async function trickle() {
  const outcome = { written: 0, closedEarly: false };
  const server = await localServer((_e, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)) });
    const timer = setInterval(() => {
      if (outcome.written >= BODY.length) return clearInterval(timer);
      res.write(BODY[outcome.written]);
      outcome.written += 1;
    }, 50);
    res.on('close', () => {
      clearInterval(timer);
      if (outcome.written < BODY.length) outcome.closedEarly = true;
    });
  });
  return { server, outcome };
}

test.each<[string, (timeoutMs: number) => Transport]>([
  ['undici', (timeoutMs) => undiciTransport({ timeoutMs })],
  ['fetch', (timeoutMs) => fetchTransport({ timeoutMs })],
])('%s transport: a body trickling a byte every 50 ms is cut off by a 400 ms timeout', async (_name, make) => {
  const { server, outcome } = await trickle();
  const transport = make(400);
  const error = await transport({ method: 'GET', url: `${server.url}/account`, headers: {} }).catch((e: unknown) => e);
  while (!outcome.closedEarly && outcome.written < BODY.length) await new Promise((resolve) => setTimeout(resolve, 20));
  await server.close();
  expect(error).toBeInstanceOf(Error);
  expect((error as Error).message).toMatch(/400 ms timeout \(whole attempt/);
  expect(outcome.closedEarly).toBe(true);
  expect(outcome.written).toBeLessThan(BODY.length);
});

test('undici transport: the deadline covers connecting too (a connect that never completes ends at the timeout)', async () => {
  // A connector that never calls back stands for a black-holed SYN; undici's headers and body timeouts
  // only start once connected, so without the attempt's own timer this waits for ever.
  const dispatcher = new Agent({ connect: () => undefined });
  const attempt = undiciTransport({ dispatcher, timeoutMs: 300 })({ method: 'GET', url: 'http://127.0.0.1:9/account', headers: {} }).catch((e: unknown) => e);
  let guard: NodeJS.Timeout | undefined;
  const stillWaiting = new Promise<string>((resolve) => (guard = setTimeout(() => resolve('still waiting after 10 s'), 10_000)));
  const outcome = await Promise.race([attempt, stillWaiting]);
  clearTimeout(guard);
  await dispatcher.destroy();
  expect(outcome).toBeInstanceOf(Error);
  expect((outcome as Error).message).toMatch(/300 ms timeout \(whole attempt/);
}, 20_000);

test('the caller’s own signal still cancels an attempt (and is not reported as a timeout)', async () => {
  const { server } = await trickle();
  const controller = new AbortController();
  const pending = undiciTransport({ timeoutMs: 60_000 })({ method: 'GET', url: `${server.url}/account`, headers: {}, signal: controller.signal }).catch((e: unknown) => e);
  setTimeout(() => controller.abort(), 100);
  const error = await pending;
  await server.close();
  expect((error as { name?: string }).name).toBe('AbortError');
  expect(String((error as Error).message)).not.toMatch(/timeout/);
});

test('undici transport: a server that never answers is cut off by the attempt’s own timer, never early by undici’s coarser headers timeout', async () => {
  // undici's timers tick about every half second and may fire up to a tick before their end: with its
  // headers timeout equal to the attempt's, about half of these attempts ended as its HeadersTimeoutError.
  const server = await localServer(() => undefined);
  const dispatcher = new Agent({ connections: 8 });
  const transport = undiciTransport({ dispatcher, timeoutMs: 1200 });
  const attempts: Promise<unknown>[] = [];
  for (let i = 0; i < 6; i++) {
    attempts.push(transport({ method: 'GET', url: `${server.url}/jobs/job_${i}`, headers: {} }).catch((e: unknown) => e));
    await new Promise((resolve) => setTimeout(resolve, 90)); // spread the starts over undici's tick
  }
  const errors = await Promise.all(attempts);
  await dispatcher.destroy();
  await server.close();
  expect(errors.map((e) => (e as Error).message.replace(/\d+ ms/, 'N ms'))).toEqual(Array(6).fill('The request took longer than the N ms timeout (whole attempt: connect, headers and body).'));
}, 20_000);
