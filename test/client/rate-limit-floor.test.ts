import { localServer, recordedClient, reply } from './local-server.ts';

/**
 * No answer can make the client spin on 429s: whatever the wait a 429 works out to (Retry-After 0, a
 * garbled one, a reset already past), the client waits at least 1 s, doubling on each further 429 of
 * the same call that again asks for less. A service that names a wait of at least the floor is obeyed. Over real HTTP; the waits are recorded on the client's virtual clock.
 */
const rateLimited = { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'slow down' } };
const account = { data: { rate_limit: 60 } };

function refusingServer(refusals: number, headers: () => Record<string, string>) {
  return localServer((_e, res, n) => (n <= refusals ? reply(res, 429, rateLimited, headers()) : reply(res, 200, account)));
}

test.each([
  ['Retry-After: 0', () => ({ 'retry-after': '0' })],
  ['a garbled Retry-After', () => ({ 'retry-after': 'soon-ish' })],
  ['a negative Retry-After', () => ({ 'retry-after': '-5' })],
  ['a reset already past and no Retry-After', () => ({ 'x-ratelimit-reset': String(Math.floor(Date.now() / 1000) - 30) })],
])('a 429 whose wait works out to 0 s (%s) waits 1 s, then 2 s, then 4 s', async (_name, headers) => {
  const server = await refusingServer(3, headers);
  const { client, sleeps, close } = recordedClient(server.url);
  await expect(client.account.get()).resolves.toEqual({ rate_limit: 60 });
  await close();
  await server.close();
  expect(server.exchanges).toHaveLength(4);
  expect(sleeps).toEqual([1000, 2000, 4000]);
});

test('a Retry-After of 1 s on every 429 is waited as asked: the floor grows only on answers below it', async () => {
  const server = await refusingServer(3, () => ({ 'retry-after': '1' }));
  const { client, sleeps, close } = recordedClient(server.url);
  await client.account.get();
  await close();
  await server.close();
  expect(sleeps).toEqual([1000, 1000, 1000]);
});

test('a longer Retry-After than the floor is waited as asked', async () => {
  const server = await refusingServer(2, () => ({ 'retry-after': '3' }));
  const { client, sleeps, close } = recordedClient(server.url);
  await client.account.get();
  await close();
  await server.close();
  expect(sleeps).toEqual([3000, 3000]);
});

test('an endless stream of 0-second 429s ends at the caller’s wait bound after a handful of calls (it made 101)', async () => {
  const server = await localServer((_e, res) => reply(res, 429, rateLimited, { 'retry-after': '0' }));
  const { client, sleeps, close } = recordedClient(server.url, { maxWaitMs: 10_000 });
  await expect(client.account.get()).rejects.toMatchObject({ code: 'rate_limit_wait_exceeded' });
  await close();
  await server.close();
  // 1 + 2 + 4 s fit in 10 s; the next 8 s would not.
  expect(sleeps).toEqual([1000, 2000, 4000]);
  expect(server.exchanges).toHaveLength(4);
});
