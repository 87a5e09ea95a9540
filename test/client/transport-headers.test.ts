import { Agent } from 'undici';
import { fetchTransport } from '../../src/runtime/fetch-transport.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import type { Transport } from '../../src/runtime.ts';
import { localServer } from './local-server.ts';

/**
 * What every transport hands the layer (runtime.ts): header names in lower case, whatever case the
 * server wrote them in, and a header sent twice as one value, its parts joined by ", " (the layer reads
 * `x-request-id`, the rate-limit headers and `idempotent-replay` by their lower-case names).
 */
test.each<[string, (dispatcher: Agent) => Transport]>([
  ['undici', (dispatcher) => undiciTransport({ dispatcher })],
  ['fetch', () => fetchTransport()],
])('%s transport: header names come in lower case, a repeated header as one joined value', async (_name, make) => {
  const server = await localServer((_e, res) => {
    res.writeHead(200, [
      ['Content-Type', 'application/json'],
      ['X-Request-Id', 'req_Mixed'],
      ['X-RateLimit-Remaining', '7'],
      ['Warning', '199 - "first"'],
      ['Warning', '199 - "second"'],
    ]);
    res.end('{"data":{}}');
  });
  const dispatcher = new Agent({ connections: 1 });
  try {
    const response = await make(dispatcher)({ method: 'GET', url: `${server.url}/account`, headers: {} });
    expect(response.status).toBe(200);
    expect(response.body).toBe('{"data":{}}');
    expect(response.headers['x-request-id']).toBe('req_Mixed');
    expect(response.headers['x-ratelimit-remaining']).toBe('7');
    expect(response.headers['warning']).toBe('199 - "first", 199 - "second"');
    expect(Object.keys(response.headers).filter((name) => name !== name.toLowerCase())).toEqual([]);
  } finally {
    await dispatcher.close();
    await server.close();
  }
});
