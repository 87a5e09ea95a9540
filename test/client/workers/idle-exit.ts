/**
 * One request through undiciTransport with a 10-minute timeout, then nothing: the process must end on
 * its own (the transport's deadline timer must not hold it). Prints the status it got.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent } from 'undici';
import { undiciTransport } from '../../../src/runtime/undici-transport.ts';

async function main(): Promise<void> {
  const server = createServer((_req, res) => res.end('{"ok":true}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const dispatcher = new Agent({ keepAliveTimeout: 10 });
  const transport = undiciTransport({ dispatcher, timeoutMs: 600_000 });
  const answer = await transport({ method: 'GET', url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, headers: {} });
  server.close();
  await dispatcher.close();
  console.log(answer.status);
}

void main();
