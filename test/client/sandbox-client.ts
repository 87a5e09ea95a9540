import { Agent } from 'undici';
import { MessagingClient } from '../../src/client.ts';
import type { ClientOptions } from '../../src/client.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import type { HttpRequest } from '../../src/runtime.ts';
import { start } from '../../sandbox/server.ts';
import type { Sandbox, SandboxConfigInput } from '../../sandbox/server.ts';

export const DEMO_KEY = 'sk_test_demo_ok';

/** A started sandbox and clients that talk to it over real HTTP, with every request recorded. */
export async function startSandbox(config?: SandboxConfigInput): Promise<Sandbox> {
  return start({ port: 0, config });
}

export function sandboxClient(sandbox: Sandbox, options: Partial<ClientOptions> & { timeoutMs?: number } = {}) {
  const dispatcher = new Agent({ connections: 16 });
  const runtime = nodeRuntime(undiciTransport({ dispatcher, timeoutMs: options.timeoutMs }));
  const requests: (HttpRequest & { status?: number; retryAfter?: string })[] = [];
  const transport = runtime.transport;
  runtime.transport = async (req) => {
    const entry: (typeof requests)[number] = { ...req };
    requests.push(entry);
    const res = await transport(req);
    entry.status = res.status;
    entry.retryAfter = res.headers['retry-after'];
    return res;
  };
  const client = new MessagingClient({ baseUrl: sandbox.url, apiKey: DEMO_KEY, runtime, limiters: new LimiterRegistry(), ...options });
  return { client, requests, close: () => dispatcher.close() };
}

export function emails(n: number, prefix = 'm'): { channel: string; to: string; body: string }[] {
  return Array.from({ length: n }, (_, i) => ({ channel: 'email', to: `user${i}@example.com`, body: `${prefix}-${i}` }));
}
