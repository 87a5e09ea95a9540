/**
 * The job waiter's schedule: few polls, and completion noticed soon after it happens. Jobs of 2 s, 40 s
 * and 5 min run in the real sandbox over HTTP; the sandbox's clock (Date) and the waiter's sleep are one
 * virtual clock, so minutes of job pass in milliseconds and lag is measured, not timed.
 */
import { Agent } from 'undici';
import { MessagingClient } from '../../src/client.ts';
import { DEFAULT_POLL_PLAN, nextPollDelay } from '../../src/poll-schedule.ts';
import { LimiterRegistry } from '../../src/rate-limiter.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import type { Runtime } from '../../src/runtime.ts';
import type { ImportOutcome, Job } from '../../src/types.ts';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { localServer, recordedClient, reply } from './local-server.ts';
import { DEMO_KEY } from './sandbox-client.ts';

const FIRST_DELAY_MS = DEFAULT_POLL_PLAN.minDelayMs;
const ROWS = 600;

/** Fakes only Date (the sandbox's clock); timers and IO stay real so HTTP works. */
function virtualDate(): void {
  jest.useFakeTimers({ now: Date.UTC(2026, 0, 1), doNotFake: ['hrtime', 'nextTick', 'performance', 'queueMicrotask', 'setImmediate', 'clearImmediate', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
}

function virtualRuntime(dispatcher: Agent, random: () => number): { runtime: Runtime; polls: () => number } {
  let polls = 0;
  const transport = undiciTransport({ dispatcher });
  return {
    runtime: {
      transport: (req) => {
        if (req.url.includes('/jobs/')) polls += 1;
        return transport(req);
      },
      sleep: async (ms, signal) => {
        if (signal?.aborted) throw new Error('aborted');
        jest.setSystemTime(Date.now() + ms);
      },
      now: () => Date.now(),
      random,
    },
    polls: () => polls,
  };
}

function queuedJob(outcome: ImportOutcome): Job {
  const chunk = outcome.chunks[0]!;
  if (chunk.status !== 'queued') throw new Error(`import failed: ${chunk.status}`);
  return chunk.job;
}

describe('against the sandbox on a virtual clock', () => {
  let sandbox: Sandbox;
  let dispatcher: Agent;
  beforeAll(async () => {
    virtualDate();
    sandbox = await start({ port: 0, config: { accounts: [{ id: 'acc_demo', rate_limit: 1000 }] } });
    dispatcher = new Agent({ connections: 2 });
  });
  afterAll(async () => {
    await dispatcher.close();
    await sandbox.close();
    jest.useRealTimers();
  });

  const cases = [2, 40, 300].flatMap((seconds) => [0, 0.5, 0.999].map((random) => [seconds, random] as const));
  test.each(cases)('a %p s job (jitter draw %p): polls ≤ ⌈log2(duration / first delay)⌉ + 2, lag ≤ 0.25 × duration', async (seconds, random) => {
    await sandbox.control.configure({ job_rows_per_second: ROWS / seconds });
    const { runtime, polls } = virtualRuntime(dispatcher, () => random);
    const client = new MessagingClient({ baseUrl: sandbox.url, apiKey: DEMO_KEY, runtime, limiters: new LimiterRegistry() });
    const contacts = Array.from({ length: ROWS }, (_, i) => ({ email: `s${seconds}-${random}-${i}@example.com` }));
    const job = queuedJob(await client.contacts.import(contacts));
    const result = await client.jobs.wait(job.id, { timeoutMs: 3_600_000 });
    const noticedAt = Date.now();

    expect(result.status).toBe('completed');
    const finished = result.job!;
    const duration = Date.parse(finished.completed_at!) - Date.parse(finished.created_at);
    expect(duration).toBeGreaterThanOrEqual(seconds * 1000 - 1);
    expect(duration).toBeLessThanOrEqual(seconds * 1000 + 1);
    expect(polls()).toBeLessThanOrEqual(Math.ceil(Math.log2(duration / FIRST_DELAY_MS)) + 2);
    expect(noticedAt - Date.parse(finished.completed_at!)).toBeLessThanOrEqual(0.25 * duration);
  });

  test('a job whose counters never move until the end: each delay stays within 0.2 of the time waited', async () => {
    await sandbox.control.configure({ job_rows_per_second: 0 });
    const sleeps: number[] = [];
    const { runtime } = virtualRuntime(dispatcher, () => 0.5);
    const sleep = runtime.sleep;
    runtime.sleep = (ms, signal) => {
      sleeps.push(ms);
      return sleep(ms, signal);
    };
    const client = new MessagingClient({ baseUrl: sandbox.url, apiKey: DEMO_KEY, runtime, limiters: new LimiterRegistry() });
    const job = queuedJob(await client.contacts.import([{ email: 'stalled@example.com' }]));
    const result = await client.jobs.wait(job.id, { timeoutMs: 120_000 });
    expect(result.status).toBe('timeout');
    let waited = 0;
    for (const ms of sleeps) {
      expect(ms).toBeLessThanOrEqual(Math.max(FIRST_DELAY_MS, 0.2 * waited) + 1);
      waited += ms;
    }
    expect(waited).toBeCloseTo(120_000, 3);
  });
});

describe('Retry-After on GET /jobs/{id}', () => {
  /** The job finishes on poll `finishAt`; every unfinished answer says Retry-After: 7. */
  function jobServer(finishAt: number) {
    return localServer((_e, res, n) => {
      const done = n >= finishAt;
      const job = { object: 'job', id: 'job_1', type: 'contacts.bulk', status: done ? 'done' : 'queued', total: 10, processed: done ? 10 : n * 3, failed: 0, errors: [], created_at: '2026-01-01T00:00:00Z', completed_at: done ? '2026-01-01T00:00:14Z' : null };
      reply(res, 200, { data: job }, done ? {} : { 'retry-after': '7' });
    });
  }

  test('takes precedence over the schedule, within the deadline', async () => {
    const server = await jobServer(3);
    const { client, sleeps, close } = recordedClient(server.url);
    try {
      const result = await client.jobs.wait('job_1', { timeoutMs: 60_000 });
      expect(result.status).toBe('completed');
      expect(server.exchanges).toHaveLength(3);
      expect(sleeps).toEqual([7000, 7000]);
    } finally {
      await close();
      await server.close();
    }
  });

  test('the deadline still ends the wait: a timeout result, the last sleep cut to what was left', async () => {
    const server = await jobServer(4);
    const { client, sleeps, close } = recordedClient(server.url);
    try {
      const result = await client.jobs.wait('job_1', { timeoutMs: 10_000 });
      expect(result.status).toBe('timeout');
      expect(sleeps).toEqual([7000, 3000]);
    } finally {
      await close();
      await server.close();
    }
  });
});

describe('nextPollDelay', () => {
  const plan = DEFAULT_POLL_PLAN;
  test('without a forecast: ×2 growth from the first delay, capped at 0.2 of the time waited and at the max delay', () => {
    expect(nextPollDelay({ polls: 1, waitedMs: 0, random: 0.5 }, plan)).toBe(1000);
    expect(nextPollDelay({ polls: 3, waitedMs: 3000, random: 0.5 }, plan)).toBe(1000);
    expect(nextPollDelay({ polls: 6, waitedMs: 40_000, random: 0.5 }, plan)).toBe(8000);
    expect(nextPollDelay({ polls: 12, waitedMs: 600_000, random: 0.5 }, plan)).toBe(20_000);
  });
  test('with a forecast: growth, but never past the forecast end plus 5%', () => {
    expect(nextPollDelay({ polls: 2, waitedMs: 1000, forecastMs: 39_000, random: 0.5 }, plan)).toBe(2000);
    expect(nextPollDelay({ polls: 6, waitedMs: 31_000, forecastMs: 9_000, random: 0.5 }, plan)).toBe(9_000 * 1.05 + 50);
  });
  test('Retry-After wins over both', () => {
    expect(nextPollDelay({ polls: 2, waitedMs: 1000, forecastMs: 500, retryAfterMs: 30_000, random: 0.5 }, plan)).toBe(30_000);
  });
});
