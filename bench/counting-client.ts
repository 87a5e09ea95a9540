/** A client over undici whose every request is recorded (path, send time, status), for counting calls. */
import type { Agent } from 'undici';
import { MessagingClient } from '../src/client.ts';
import { LimiterRegistry } from '../src/rate-limiter.ts';
import { nodeRuntime } from '../src/runtime/node-runtime.ts';
import { undiciTransport } from '../src/runtime/undici-transport.ts';
import type { MessageElement } from '../src/types.ts';

export const KEY = 'sk_test_demo_ok';

export interface WireEntry {
  path: string;
  sentAt: number;
  status?: number;
}

export function countingClient(url: string, dispatcher: Agent, options: { concurrency?: number } = {}) {
  const runtime = nodeRuntime(undiciTransport({ dispatcher }));
  const wire: WireEntry[] = [];
  const send = runtime.transport;
  runtime.transport = async (req) => {
    const entry: WireEntry = { path: new URL(req.url).pathname, sentAt: Date.now() };
    wire.push(entry);
    const res = await send(req);
    entry.status = res.status;
    return res;
  };
  const client = new MessagingClient({ baseUrl: url, apiKey: KEY, runtime, limiters: new LimiterRegistry(), maxWaitMs: 600_000, ...options });
  return { client, wire, count: (suffix: string) => wire.filter((w) => w.path.endsWith(suffix)).length };
}

export function messages(n: number, tag: string): MessageElement[] {
  return Array.from({ length: n }, (_, i) => ({ channel: 'email', to: `u${i}@example.com`, body: `${tag}-${i}` }));
}
