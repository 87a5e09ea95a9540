import type { HttpRequest, HttpResponse, Runtime } from '../../src/runtime.ts';

/**
 * A virtual clock for unit tests of pure logic: `sleep` advances time instantly. The transport is a
 * scripted function; integration tests use the real sandbox over HTTP instead.
 */
export function virtualRuntime(respond: (req: HttpRequest, now: number) => HttpResponse | Promise<HttpResponse>, start = 1_700_000_000_000) {
  let now = start;
  const sleeps: number[] = [];
  const requests: (HttpRequest & { at: number })[] = [];
  const runtime: Runtime = {
    transport: async (req) => {
      requests.push({ ...req, at: now });
      return respond(req, now);
    },
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw Object.assign(new Error('aborted'), { name: 'AbortError' });
      sleeps.push(ms);
      now += ms;
    },
    now: () => now,
    random: () => 0.5,
  };
  return { runtime, sleeps, requests, advance: (ms: number) => (now += ms) };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): HttpResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) };
}
