import { MessagingClient } from '../../src/client.ts';
import type { ClientEvent } from '../../src/request-sender.ts';
import { localServer, recordedClient, reply } from './local-server.ts';

/**
 * The key is removed from every string the client hands back or throws, wherever the service put it:
 * the X-Request-Id header (handed back as `requestId` in results, errors and events), the body in the
 * escapings a JSON service may use (`\uXXXX`, `\/`, percent-encoding), and a base URL the user pasted
 * it into. Over real HTTP to a scripted server.
 */
const KEY = 'sk_test_zq/Xv+w=9071';

/** The key in the forms a service may echo it in. None may survive. */
const FORMS = [
  KEY,
  KEY.replace(/\//g, '\\/'),
  [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
  [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}`).join(''),
  encodeURIComponent(KEY),
  encodeURIComponent(KEY).toLowerCase(),
];
const uEscaped = FORMS[2];
const slashEscaped = FORMS[1];
const percent = FORMS[4];

function expectNoKey(value: unknown): void {
  const text = typeof value === 'string' ? value : JSON.stringify(value, (_k, v: unknown) => (v instanceof Error ? { ...v, message: v.message } : v));
  for (const form of FORMS) expect(text).not.toContain(form);
  expect(text).not.toContain('zq/Xv');
}

test('X-Request-Id carrying the key is redacted in results, errors and retry events', async () => {
  const rowError = `{"type":"invalid_request_error","code":"validation_failed","message":"bad ${uEscaped}","param":"to"}`;
  const server = await localServer((_e, res, n) => {
    if (n === 1) return reply(res, 500, { error: { type: 'api_error', code: 'internal_error', message: 'oops' } }, { 'x-request-id': `req_${KEY}` });
    res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': `req2_${percent}` });
    res.end(`{"data":[{"index":0,"id":"msg_1"},{"index":1,"error":${rowError}}]}`);
  });
  const events: ClientEvent[] = [];
  const { client, close } = recordedClient(server.url, { apiKey: KEY, onEvent: (e) => events.push(e) });
  const out = await client.messages.sendBatch([
    { channel: 'email', to: 'a@example.com', body: 'hi' },
    { channel: 'email', to: 'b@example.com', body: 'hi' },
  ]);
  await close();
  await server.close();
  expect(out).toMatchObject({ sent: 1, failed: 1 });
  expect(out.results[0].call.requestId).toBe('req2_[redacted]');
  expect(out.results[1]).toMatchObject({ status: 'failed', error: { message: 'bad [redacted]' } });
  const retry = events.find((e) => e.type === 'retry');
  expect(retry).toMatchObject({ requestId: 'req_[redacted]' });
  expectNoKey(out);
  expectNoKey(events);
});

test('a key echoed \\u-escaped, with \\/ and percent-encoded in an error body is redacted, as is its request id', async () => {
  const body = `{"error":{"type":"invalid_request_error","code":"validation_failed","message":"key ${uEscaped} is odd","param":"${slashEscaped}","doc_url":"https://docs.example.com/?k=${percent}"}}`;
  const server = await localServer((_e, res) => {
    res.writeHead(422, { 'content-type': 'application/json', 'x-request-id': KEY });
    res.end(body);
  });
  const { client, close } = recordedClient(server.url, { apiKey: KEY });
  const error = await client.account.get().catch((e: unknown) => e);
  await close();
  await server.close();
  expect(error).toMatchObject({ code: 'validation_failed', message: 'key [redacted] is odd', param: '[redacted]', docUrl: 'https://docs.example.com/?k=[redacted]', requestId: '[redacted]' });
  expectNoKey((error as { toJSON(): unknown }).toJSON());
  expectNoKey(String((error as Error).message));
});

test('a key pasted into the base URL is never quoted back in the error', async () => {
  const server = await localServer((_e, res) => reply(res, 200, { data: {} }));
  const attempts = [`http://127.0.0.1/${KEY}/v2`, `http://127.0.0.1/v1/${KEY}`, `not a url ${KEY}`, `ftp://${encodeURIComponent(KEY)}.example.com/v1`, `https://user:${encodeURIComponent(KEY)}@api.example.com/v1`, `https://api.example.com/v1?key=${percent}`];
  for (const baseUrl of attempts) {
    let thrown: unknown;
    try {
      new MessagingClient({ baseUrl, apiKey: KEY, runtime: { transport: async () => ({ status: 200, headers: {}, body: '{}' }), sleep: async () => undefined, now: () => 0, random: () => 0.5 } });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ code: 'invalid_base_url' });
    expectNoKey(String((thrown as Error).message));
    expectNoKey((thrown as { toJSON(): unknown }).toJSON());
  }
  expect(server.exchanges).toHaveLength(0);
  await server.close();
});

test('with the key given only for redaction (the transport authenticates, as in n8n), it is still redacted', async () => {
  const server = await localServer((_e, res) => {
    res.writeHead(400, { 'content-type': 'application/json', 'x-request-id': `r_${KEY}` });
    res.end(`{"error":{"type":"invalid_request_error","code":"request_refused","message":"${slashEscaped}"}}`);
  });
  const { client, close } = recordedClient(server.url, { apiKey: undefined, limiterId: 'hash', redactKey: KEY });
  const error = await client.account.get().catch((e: unknown) => e);
  await close();
  await server.close();
  expect(error).toMatchObject({ code: 'request_refused', message: '[redacted]', requestId: 'r_[redacted]' });
  expect(server.exchanges[0].headers.authorization).toBeUndefined();
});
