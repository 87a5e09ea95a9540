import { MessagingClient } from '../../src/client.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import type { HttpResponse, Runtime } from '../../src/runtime.ts';
import { json } from './fake-runtime.ts';

/**
 * Several client processes on one key, on one virtual clock: a discrete-event loop runs every pending
 * sleep in time order, so N clients (each its own limiter, as separate OS processes would be) contend
 * for a fixed-window server exactly and repeatably. Randomness is seeded per process.
 */
export interface SimOptions {
  processes: number;
  limit: number;
  windowMs: number;
  windows: number;
  /** Each way, server and network. */
  latencyMs: number;
  /** Loops per process (the client's default concurrency is 2). */
  loops: number;
  /** Process i starts this many ms after process 0 (uneven starts). */
  startGapMs?: number;
  seed?: number;
}

export interface SimResult {
  /** Per window: calls the server counted, and 429s. */
  windows: { counted: number; rejected: number }[];
  /** Calls counted per process. */
  perProcess: number[];
  /** Offsets from the window start (ms) of every counted call. */
  offsets: number[];
}

function seeded(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 2 ** 32;
  };
}

export async function simulateSharedKey(o: SimOptions): Promise<SimResult> {
  const start = 1_700_000_000_000; // a multiple of the window lengths used, so windows align with it
  let now = start;
  let order = 0;
  const timers: { at: number; order: number; wake: () => void }[] = [];
  const sleep = (ms: number) => new Promise<void>((wake) => timers.push({ at: now + Math.max(0, ms), order: order++, wake }));

  const end = start + o.windows * o.windowMs;
  const counts = new Map<number, number>();
  const result: SimResult = { windows: Array.from({ length: o.windows }, () => ({ counted: 0, rejected: 0 })), perProcess: Array(o.processes).fill(0), offsets: [] };
  const serve = (process: number): HttpResponse => {
    const window = Math.floor((now - start) / o.windowMs);
    const used = counts.get(window) ?? 0;
    const reset = (start + (window + 1) * o.windowMs) / 1000;
    const over = used >= o.limit;
    if (!over) counts.set(window, used + 1);
    const headers: Record<string, string> = {
      'x-ratelimit-limit': String(o.limit),
      'x-ratelimit-remaining': String(Math.max(0, o.limit - used - (over ? 0 : 1))),
      'x-ratelimit-reset': String(reset),
      date: new Date(now).toUTCString(),
    };
    if (window < o.windows) {
      if (over) result.windows[window]!.rejected += 1;
      else {
        result.windows[window]!.counted += 1;
        result.perProcess[process]! += 1;
        result.offsets.push((now - start) % o.windowMs);
      }
    }
    if (over) return json(429, { error: { type: 'rate_limit_error', code: 'rate_limit_exceeded', message: 'slow down' } }, { ...headers, 'retry-after': String(Math.max(1, Math.ceil(reset - now / 1000))) });
    return json(200, { data: { rate_limit: o.limit } }, headers);
  };

  const runs: Promise<void>[] = [];
  for (let p = 0; p < o.processes; p++) {
    const runtime: Runtime = {
      transport: async () => {
        await sleep(o.latencyMs);
        const response = serve(p);
        await sleep(o.latencyMs);
        return response;
      },
      sleep: (ms) => sleep(ms),
      now: () => now,
      random: seeded((o.seed ?? 1) * 7919 + p * 104_729),
    };
    const client = new MessagingClient({ baseUrl: 'https://api.example.com/v1', apiKey: 'sk_test_shared', runtime, limiters: new LimiterRegistry(), maxWaitMs: 3_600_000 });
    const loop = async () => {
      await sleep(p * (o.startGapMs ?? 0));
      while (now < end) await client.account.get();
    };
    for (let l = 0; l < o.loops; l++) runs.push(loop());
  }
  let running = true;
  const all = Promise.all(runs).finally(() => (running = false));
  while (running) {
    await new Promise((r) => setImmediate(r)); // let every woken client run until it sleeps again
    timers.sort((a, b) => a.at - b.at || a.order - b.order);
    const next = timers.shift();
    if (!next) break;
    now = Math.max(now, next.at);
    next.wake();
  }
  await all;
  return result;
}
