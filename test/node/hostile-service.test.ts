/**
 * A service that misbehaves, seen through the node. The key never reaches an n8n item or error, even
 * when the service echoes it: in X-Request-Id, in a whole-call error's message \u-escaped, and in a row
 * error's message percent-encoded (the node's credential adds the Authorization header, so the client is
 * handed the key for redaction alone). A poll that hangs ends at the wait's deadline. Real HTTP to a
 * local server, n8n-core's real engine.
 */
import { localServer, reply } from '../client/local-server.ts';
import { runNode } from './harness.ts';
import { batchParameters, people } from './support.ts';

const KEY = 'sk_live_Echo/Me+1';
const unicodeEscaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const forms = [KEY, encodeURIComponent(KEY), unicodeEscaped, JSON.stringify(KEY).slice(1, -1)];

function leaks(value: unknown): string[] {
  const text = JSON.stringify(value);
  return forms.filter((form) => text.includes(form) || text.includes(JSON.stringify(form).slice(1, -1)));
}

test('a whole-call error and a row error that echo the key, and an X-Request-Id holding it, reach no item and no error', async () => {
  const server = await localServer((exchange, res, n) => {
    const requestId = `req_${KEY}`;
    if (n === 1) {
      // The first chunk: 200 with one row refused, its message quoting the key percent-encoded.
      const count = (JSON.parse(exchange.body) as { messages: unknown[] }).messages.length;
      const data = Array.from({ length: count }, (_, index) => (index === 0 ? { index, error: { type: 'invalid_request_error', code: 'validation_failed', message: `bad key ${encodeURIComponent(KEY)}`, param: 'to' } } : { index, id: `msg_${index}` }));
      return reply(res, 200, { data }, { 'x-request-id': requestId });
    }
    // Then a whole-call refusal whose message holds the key \u-escaped.
    return reply(res, 403, `{"error":{"type":"authentication_error","code":"insufficient_scope","message":"key ${unicodeEscaped} lacks messages:write","param":"${unicodeEscaped}"}}`, { 'x-request-id': requestId });
  });
  try {
    const { outputs, error } = await runNode({ parameters: batchParameters, items: people(600), credentials: { apiKey: KEY, baseUrl: server.url }, onError: 'continueErrorOutput', executionId: 'exec-echo' });
    expect(error).toBeUndefined();
    const [sent, errors] = [outputs[0]!, outputs[1]!];
    expect(sent).toHaveLength(499);
    expect(errors.length).toBe(101);
    // The server did echo it: the test would prove nothing otherwise.
    expect(server.exchanges.length).toBe(2);
    expect(JSON.stringify(errors)).toContain('[redacted]');
    expect(leaks(outputs)).toEqual([]);
  } finally {
    await server.close();
  }
});

test('the same echoes without the error output: the node error holds no form of the key', async () => {
  const server = await localServer((_exchange, res) =>
    reply(res, 403, `{"error":{"type":"authentication_error","code":"insufficient_scope","message":"key ${unicodeEscaped} lacks messages:write"}}`, { 'x-request-id': `req_${encodeURIComponent(KEY)}` }),
  );
  try {
    const { error } = await runNode({ parameters: batchParameters, items: people(3), credentials: { apiKey: KEY, baseUrl: server.url }, executionId: 'exec-echo-fail' });
    expect(error).toBeDefined();
    expect(JSON.stringify(error)).toContain('insufficient_scope');
    expect(leaks(error)).toEqual([]);
  } finally {
    await server.close();
  }
});

test('Job → Wait whose poll hangs ends at its timeout: the deadline reaches n8n\'s HTTP request, not only the waits between polls', async () => {
  const job = { id: 'job_hang', object: 'job', status: 'queued', total: 1, processed: 0, failed: 0, errors: [], created_at: '2026-01-01T00:00:00Z', completed_at: null };
  // The first poll answers "queued"; every later one never answers.
  const server = await localServer((_exchange, res, n) => (n === 1 ? reply(res, 200, { data: job }) : undefined));
  try {
    const { error } = await runNode({ parameters: { resource: 'job', operation: 'wait', jobId: 'job_hang', timeoutSeconds: 2 }, items: [{}], credentials: { apiKey: 'sk_test_demo_ok', baseUrl: server.url }, executionId: 'exec-hang' });
    expect(error?.message).toMatch(/wait_timeout|did not finish within 2 s/);
    expect(server.exchanges.length).toBeGreaterThanOrEqual(2);
  } finally {
    await server.close();
  }
}, 30_000);
