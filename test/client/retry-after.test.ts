import { localServer, recordedClient, reply } from './local-server.ts';

/**
 * How long the client waits when the service says so, over real HTTP (the waits are recorded on a
 * virtual clock, not measured): Retry-After in decimal seconds, as an HTTP-date against the server's
 * Date, a 429 without Retry-After until X-RateLimit-Reset, and the one rule for 500 and 503.
 */
const rateLimited = { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'slow down' } };
const sent = { data: [{ index: 0, id: 'msg_1' }] };
const message = [{ channel: 'email', to: 'a@example.com', body: 'hi' }];

test('Retry-After: 1.5 is 1.5 seconds (it used to parse as a date: 0 ms, 101 retries)', async () => {
  const server = await localServer((_e, res, n) => (n === 1 ? reply(res, 429, rateLimited, { 'retry-after': '1.5' }) : reply(res, 200, sent)));
  const { client, sleeps, close } = recordedClient(server.url);
  const out = await client.messages.sendBatch(message);
  await close();
  await server.close();
  expect(out.sent).toBe(1);
  expect(server.exchanges).toHaveLength(2);
  expect(sleeps).toEqual([1500]);
});

test('an HTTP-date Retry-After is read against the server’s Date header, whatever the local clock says', async () => {
  const serverNow = Date.parse('Tue, 14 Nov 2023 22:13:20 GMT');
  const headers = { date: new Date(serverNow).toUTCString(), 'retry-after': new Date(serverNow + 3000).toUTCString() };
  const server = await localServer((_e, res, n) => (n === 1 ? reply(res, 429, rateLimited, headers) : reply(res, 200, sent)));
  // The local clock is an hour ahead of the server: against it, the date would already have passed.
  const { client, sleeps, close } = recordedClient(server.url, { start: serverNow + 3_600_000 });
  const out = await client.messages.sendBatch(message);
  await close();
  await server.close();
  expect(out.sent).toBe(1);
  expect(sleeps).toEqual([3000]);
});

test('a 429 without Retry-After waits until X-RateLimit-Reset (server clock)', async () => {
  const serverNow = Date.parse('Tue, 14 Nov 2023 22:13:20 GMT');
  const headers = { date: new Date(serverNow).toUTCString(), 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': String(serverNow / 1000 + 7) };
  const server = await localServer((_e, res, n) => (n === 1 ? reply(res, 429, rateLimited, headers) : reply(res, 200, sent)));
  const { client, sleeps, close } = recordedClient(server.url, { start: serverNow - 120_000 });
  const out = await client.messages.sendBatch(message);
  await close();
  await server.close();
  expect(out.sent).toBe(1);
  expect(sleeps).toEqual([7000]);
});

test('500 and 503 follow one rule: retried once under the same key (after a 503’s Retry-After), then unknown', async () => {
  const unavailable = { error: { type: 'api_error', code: 'service_unavailable', message: 'down for a moment' } };
  const internal = { error: { type: 'api_error', code: 'internal_error', message: 'oops' } };
  const answers: [number, unknown, Record<string, string>][] = [
    [503, unavailable, { 'retry-after': '2' }],
    [200, sent, {}],
    [500, internal, {}],
    [503, '<html>Service Unavailable</html>', { 'content-type': 'text/html' }],
  ];
  const server = await localServer((_e, res, n) => {
    const [status, body, headers] = answers[n - 1];
    reply(res, status, body, headers);
  });
  const { client, sleeps, close } = recordedClient(server.url);
  const first = await client.messages.sendBatch(message, { idempotencyKey: 'k-503' });
  expect(first.sent).toBe(1);
  expect(sleeps).toEqual([2000]); // the Retry-After, longer than the 250–500 ms backoff
  const second = await client.messages.sendBatch(message, { idempotencyKey: 'k-500' });
  await close();
  await server.close();
  expect(second.results[0]).toMatchObject({ status: 'unknown', error: { status: 503, outcomeUnknown: true }, call: { idempotencyKey: 'k-500' } });
  expect(server.exchanges.map((e) => e.headers['idempotency-key'])).toEqual(['k-503', 'k-503', 'k-500', 'k-500']);
});
