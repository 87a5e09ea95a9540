/**
 * The action logs every rate-window wait (describeClientEvent). "No requests left in this window" was
 * said of every wait that was not a Retry-After — also of a shared key's spacing at 9 of 600 calls used.
 * A client on a virtual clock meets each situation from the service's own headers; the line must say
 * why it really waits.
 */
import { describeClientEvent, LimiterRegistry, MessagingClient } from '../../src/index.ts';
import type { ClientEvent } from '../../src/index.ts';
import { json, virtualRuntime } from '../client/fake-runtime.ts';

const START = 1_700_000_000_000;
const RESET = START / 1000 + 60;

/** A job read answered with the window's counts from `remaining(n)` for the n-th request. */
function client(remaining: (n: number) => number) {
  let n = 0;
  const { runtime } = virtualRuntime(() => {
    const left = remaining(n++);
    return json(200, { id: 'job_1', status: 'completed', total: 1, processed: 1, failed: 0 }, { 'x-ratelimit-limit': '600', 'x-ratelimit-remaining': String(left), 'x-ratelimit-reset': String(RESET), date: new Date(START).toUTCString() });
  }, START);
  const waits: string[] = [];
  const onEvent = (e: ClientEvent) => {
    if (e.type === 'rate_limit_wait') waits.push(describeClientEvent(e));
  };
  return { api: new MessagingClient({ baseUrl: 'https://api.example.test/v1', apiKey: 'sk_test_wording', runtime, limiters: new LimiterRegistry(), onEvent }), waits };
}

test('a shared key spaced at 9 of 600 calls used is not "no requests left": the line says it spaces its share', async () => {
  // Others spend alongside us: 8 of the first 9 calls of the window were theirs.
  const { api, waits } = client((n) => 591 - 9 * n);
  for (let i = 0; i < 3; i++) await api.jobs.get('job_1');
  expect(waits.length).toBeGreaterThan(0);
  for (const line of waits) {
    expect(line).not.toMatch(/no (requests|calls) left/);
    expect(line).toMatch(/shared with other processes.*spaces its calls to spend its share of what is left/);
  }
});

test('a window really used up says so', async () => {
  const { api, waits } = client(() => 0);
  await api.jobs.get('job_1');
  await api.jobs.get('job_1');
  expect(waits).toHaveLength(1);
  expect(waits[0]).toMatch(/^Waiting \d+(\.\d)? s for the rate window \(no calls left for this process until it resets/);
});
