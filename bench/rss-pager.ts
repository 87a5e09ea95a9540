/**
 * Child process of bench/rss.ts: pages every contact, once through our client (`for await`) or once with
 * bare undici.request, and prints how far RSS rose above its level after a first warm-up page.
 *   node bench/rss-pager.ts ours|undici <base url>
 */
import { request } from 'undici';
import { MessagingClient } from '../src/client.ts';
import { LimiterRegistry } from '../src/rate-limiter.ts';
import { nodeRuntime } from '../src/runtime/node-runtime.ts';
import { undiciTransport } from '../src/runtime/undici-transport.ts';
import { KEY } from './counting-client.ts';

const [mode, url] = process.argv.slice(2);
const headers = { authorization: `Bearer ${KEY}` };

async function pageBare(cursor?: string): Promise<{ data: unknown[]; meta: { has_more: boolean; next_cursor: string } }> {
  const res = await request(`${url}/contacts?limit=100${cursor ? `&starting_after=${encodeURIComponent(cursor)}` : ''}`, { headers });
  return JSON.parse(await res.body.text());
}

async function main(): Promise<void> {
  let seen = 0;
  let base = 0;
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage.rss()));
  if (mode === 'ours') {
    const client = new MessagingClient({ baseUrl: url!, apiKey: KEY, runtime: nodeRuntime(undiciTransport()), limiters: new LimiterRegistry() });
    await client.contacts.listPage({ limit: 1 });
    base = peak = process.memoryUsage.rss();
    for await (const contact of client.contacts.list()) {
      if (contact) seen += 1;
      if (seen % 100 === 0) sample();
    }
  } else {
    await pageBare();
    base = peak = process.memoryUsage.rss();
    for (let cursor: string | undefined, more = true; more; ) {
      const page = await pageBare(cursor);
      seen += page.data.length;
      sample();
      more = page.meta.has_more;
      cursor = page.meta.next_cursor;
    }
  }
  sample();
  process.stdout.write(JSON.stringify({ seen, growthBytes: peak - base }));
}

void main();
