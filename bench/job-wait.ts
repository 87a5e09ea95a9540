/**
 * Polls and detection lag of the job waiter. Virtual clock: the real waitForJob against a job whose
 * counters move steadily, like the sandbox's, over many jitter draws; beside it the previous schedule
 * (×2 from 1 s, capped at 20 s). Real clock: one 2 s import job in the sandbox over HTTP.
 */
import { Agent } from 'undici';
import { waitForJob } from '../src/job-waiter.ts';
import { DEFAULT_POLL_PLAN } from '../src/poll-schedule.ts';
import type { Runtime } from '../src/runtime.ts';
import type { Job } from '../src/types.ts';
import { countingClient } from './counting-client.ts';
import type { JobWaitPoint, Row } from './results.ts';
import { ratio } from './results.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const FIRST_DELAY_MS = DEFAULT_POLL_PLAN.minDelayMs;
const ROWS = 600;
const DRAWS = 50;
const TABLE_DURATIONS_S = [2, 40, 300];
const CHART_DURATIONS_S = [2, 5, 10, 20, 40, 60, 120, 300, 600, 1200];

/** A small seeded generator (mulberry32), so every run draws the same jitter. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The job at virtual time `t` (ms since creation): rows processed steadily, finished at `durationMs`. */
function jobAt(t: number, durationMs: number): Job {
  const done = t >= durationMs;
  const processed = done ? ROWS : Math.floor((ROWS * t) / durationMs);
  return { object: 'job', id: 'job_bench', type: 'contacts.bulk', status: done ? 'completed' : 'queued', total: ROWS, processed, failed: 0, errors: [], created_at: new Date(0).toISOString(), completed_at: done ? new Date(durationMs).toISOString() : null } as Job;
}

async function oursOnVirtualClock(durationMs: number, random: () => number): Promise<{ polls: number; lagMs: number }> {
  let now = 0;
  let polls = 0;
  const runtime: Runtime = {
    transport: () => Promise.reject(new Error('no network on the virtual clock')),
    sleep: async (ms) => {
      now += ms;
    },
    now: () => now,
    random,
  };
  const result = await waitForJob(async () => (polls++, { job: jobAt(now, durationMs) }), runtime, { timeoutMs: 100 * durationMs });
  if (result.status !== 'completed') throw new Error(`virtual ${durationMs} ms job: ${result.status}`);
  return { polls, lagMs: now - durationMs };
}

/** The schedule before this change, for comparison: ×2 from the first delay with jitter, capped at 20 s. */
function previousOnVirtualClock(durationMs: number, random: () => number): { polls: number; lagMs: number } {
  let now = 0;
  let delay = FIRST_DELAY_MS;
  for (let polls = 1; ; polls++) {
    if (now >= durationMs) return { polls, lagMs: now - durationMs };
    now += delay * (0.75 + 0.5 * random());
    delay = Math.min(20_000, delay * 2);
  }
}

/** Worst polls and worst lag over the jitter draws, ours and previous. */
async function worstOver(durationS: number): Promise<JobWaitPoint> {
  const point: JobWaitPoint = { durationS, polls: 0, lagS: 0, previousPolls: 0, previousLagS: 0 };
  for (let seed = 1; seed <= DRAWS; seed++) {
    const ours = await oursOnVirtualClock(durationS * 1000, seeded(seed));
    const previous = previousOnVirtualClock(durationS * 1000, seeded(seed));
    point.polls = Math.max(point.polls, ours.polls);
    point.lagS = Math.max(point.lagS, ours.lagMs / 1000);
    point.previousPolls = Math.max(point.previousPolls, previous.polls);
    point.previousLagS = Math.max(point.previousLagS, previous.lagMs / 1000);
  }
  return point;
}

export const POLL_BOUND_FORMULA = '⌈log2(duration / first delay)⌉ + 1';
/** The fewest polls a ×2 schedule from the first delay needs to see a job of this duration finish (table and chart alike). */
export const pollBound = (durationS: number): number => Math.ceil(Math.log2((durationS * 1000) / FIRST_DELAY_MS)) + 1;
const label = (s: number) => (s >= 60 ? `${s / 60} min` : `${s} s`);

function jobRows(name: string, durationS: number, polls: number, lagS: number): Row[] {
  return [
    { figure: `job ${name}: polls`, ours: `${polls}`, reference: `${pollBound(durationS)} (${POLL_BOUND_FORMULA})`, ratio: ratio(polls, pollBound(durationS)) },
    { figure: `job ${name}: detection lag`, ours: `${lagS.toFixed(2)} s`, reference: `${label(durationS)} (the job's duration)`, ratio: ratio(lagS, durationS) },
  ];
}

async function realTwoSecondJob(): Promise<{ polls: number; lagS: number; durationS: number }> {
  const sb = await startSandboxProcess({ job_rows_per_second: ROWS / 2, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: 1e9 }] });
  const dispatcher = new Agent({ connections: 2 });
  try {
    const { client, count } = countingClient(sb.url, dispatcher);
    const chunk = (await client.contacts.import(Array.from({ length: ROWS }, (_, i) => ({ email: `job${i}@example.com` })))).chunks[0]!;
    if (chunk.status !== 'queued') throw new Error(`import: ${chunk.status}`);
    const before = count('/jobs/' + chunk.job.id);
    const result = await client.jobs.wait(chunk.job.id, { timeoutMs: 60_000 });
    const noticedAt = Date.now();
    if (result.status !== 'completed') throw new Error(`real 2 s job: ${result.status}`);
    const completedAt = Date.parse(result.job.completed_at!);
    return { polls: count('/jobs/' + chunk.job.id) - before, lagS: (noticedAt - completedAt) / 1000, durationS: (completedAt - Date.parse(result.job.created_at)) / 1000 };
  } finally {
    await dispatcher.close();
    sb.child.kill();
  }
}

export async function measureJobWaits(): Promise<{ rows: Row[]; chart: JobWaitPoint[] }> {
  const chart: JobWaitPoint[] = [];
  for (const s of CHART_DURATIONS_S) chart.push(await worstOver(s));
  const rows: Row[] = [];
  for (const s of TABLE_DURATIONS_S) {
    const p = chart.find((c) => c.durationS === s) ?? (await worstOver(s));
    rows.push(...jobRows(`${label(s)} (virtual clock, worst of ${DRAWS} jitter draws)`, s, p.polls, p.lagS));
  }
  const real = await realTwoSecondJob();
  rows.push(...jobRows(`${real.durationS.toFixed(1)} s (real clock, sandbox over HTTP)`, real.durationS, real.polls, real.lagS));
  return { rows, chart };
}
