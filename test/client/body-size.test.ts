import type { Sandbox } from '../../sandbox/server.ts';
import { localServer, recordedClient, reply } from './local-server.ts';
import { sandboxClient, startSandbox } from './sandbox-client.ts';

/**
 * Chunks are bounded by body size as well as count (default 4 MiB, `maxBodyBytes`), and a call the
 * service refuses as too large (413) is split in half under new, deterministic keys — over real HTTP.
 */
let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await startSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.control.reset());

const bigEmails = (n: number, bytes: number) => Array.from({ length: n }, (_, i) => ({ channel: 'email', to: `user${i}@example.com`, subject: 'News', body: `m-${i} ${'x'.repeat(bytes)}` }));

test('1,000 e-mails of 12.5 KB go out in bodies under 4 MiB (they were two 6.1 MiB bodies, refused), all delivered once', async () => {
  const { client, requests, close } = sandboxClient(sandbox);
  const out = await client.messages.sendBatch(bigEmails(1000, 12_500));
  await close();
  const sizes = requests.filter((r) => r.url.endsWith('/messages/batch')).map((r) => Buffer.byteLength(r.body!));
  expect(out.sent).toBe(1000);
  expect(Math.max(...sizes)).toBeLessThanOrEqual(4 * 1024 * 1024);
  expect(sizes.length).toBe(4);
  expect(sandbox.control.summary()).toMatchObject({ messages: 1000, duplicates_detected: 0 });
});

test('maxBodyBytes is a client option: a smaller bound makes more, smaller calls', async () => {
  const { client, requests, close } = sandboxClient(sandbox, { maxBodyBytes: 256 * 1024 });
  const out = await client.messages.sendBatch(bigEmails(100, 12_500));
  await close();
  const sizes = requests.map((r) => Buffer.byteLength(r.body!));
  expect(out.sent).toBe(100);
  expect(Math.max(...sizes)).toBeLessThanOrEqual(256 * 1024);
  expect(sizes.length).toBe(5);
});

test('an element larger than the bound on its own is refused before sending; the others go out', async () => {
  const { client, requests, close } = sandboxClient(sandbox, { maxBodyBytes: 64 * 1024 });
  const input = bigEmails(3, 100);
  input[1] = { ...input[1], body: 'y'.repeat(100_000) };
  const out = await client.messages.sendBatch(input);
  await close();
  expect(out.results.map((r) => r.status)).toEqual(['sent', 'failed', 'sent']);
  expect(out.results[1]).toMatchObject({ error: { code: 'invalid_input', param: 'messages[1]', outcomeUnknown: false } });
  expect(requests.some((r) => r.body!.includes('yyyy'))).toBe(false);
});

/** A service whose limit is 100 KB and says so with 413; rows answer each element. */
async function limitedService() {
  return localServer((e, res) => {
    if (Buffer.byteLength(e.body) > 100_000) return reply(res, 413, { error: { type: 'invalid_request_error', code: 'request_refused', message: 'Body too large.' } });
    const { messages } = JSON.parse(e.body) as { messages: unknown[] };
    reply(res, 200, { data: messages.map((_, index) => ({ index, id: `msg_${e.headers['idempotency-key']}_${index}` })) });
  });
}

test('a call refused with 413 is split in half, recursively, each half under its own deterministic key', async () => {
  const server = await limitedService();
  const input = bigEmails(200, 1800); // ~380 KB in one call under the 1 MiB bound
  const keysOf = async () => {
    const { client, close } = recordedClient(server.url, { maxBodyBytes: 1024 * 1024 });
    const out = await client.messages.sendBatch(input, { idempotencyKey: 'big' });
    await close();
    return out;
  };
  const first = await keysOf();
  const calls = server.exchanges.map((e) => [e.headers['idempotency-key'], Buffer.byteLength(e.body) > 100_000 ? 413 : 200]);
  const second = await keysOf();
  await server.close();
  expect(first.sent).toBe(200);
  expect(first.results.map((r) => r.index)).toEqual(input.map((_, i) => i));
  // Whole → halves → quarters; only the quarters fit.
  expect(calls).toEqual([
    ['big', 413],
    ['big.0', 413],
    ['big.0.0', 200],
    ['big.0.1', 200],
    ['big.1', 413],
    ['big.1.0', 200],
    ['big.1.1', 200],
  ]);
  expect(first.results[0].call.idempotencyKey).toBe('big.0.0');
  expect(first.results[199].call.idempotencyKey).toBe('big.1.1');
  expect(second.results.map((r) => r.call.idempotencyKey)).toEqual(first.results.map((r) => r.call.idempotencyKey));
});

test('against the sandbox: a service limit below the client bound (413) splits the chunk until it fits, each input delivered once', async () => {
  const small = await startSandbox({ max_body_bytes: 200_000 });
  try {
    const { client, requests, close } = sandboxClient(small);
    const out = await client.messages.sendBatch(bigEmails(60, 12_500), { idempotencyKey: 'split-413' });
    await close();
    const calls = requests.filter((r) => r.url.endsWith('/messages/batch'));
    expect(calls.filter((r) => r.status === 413).length).toBeGreaterThan(0);
    expect(out.sent).toBe(60);
    expect(new Set(calls.filter((r) => r.status === 200).map((r) => r.headers['idempotency-key'])).size).toBe(calls.filter((r) => r.status === 200).length);
    expect(small.control.summary()).toMatchObject({ messages: 60, duplicates_detected: 0 });
  } finally {
    await small.close();
  }
});

test('an empty list makes no call: nothing to send, nothing reported', async () => {
  const { client, requests, close } = sandboxClient(sandbox);
  const messages = await client.messages.sendBatch([]);
  const contacts = await client.contacts.import([]);
  await close();
  expect(requests).toHaveLength(0);
  expect(messages).toMatchObject({ results: [], sent: 0, failed: 0, unknown: 0, notAttempted: 0 });
  expect(contacts.chunks).toEqual([]);
});
