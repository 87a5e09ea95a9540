/**
 * Sandbox throughput: `npm run bench:sandbox` (or `node bench/sandbox-throughput.ts`).
 * Starts the sandbox as a child process (its own core), then drives it from this process with undici
 * keep-alive connections for a fixed number of requests per scenario, and prints requests/s and latency.
 * Last, batches/s with the inbox page (/) open and live in headless Chromium vs closed, as a ratio.
 * Options: --in-process (start the sandbox in this process instead), --quick (a tenth of the requests),
 * --inbox-only (just the inbox comparison).
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, commandPath } from '../test/support/system.ts';
import { Pool } from 'undici';
import { start } from '../sandbox/server.ts';
import { startSandboxProcess } from './sandbox-process.ts';

const args = new Set(process.argv.slice(2));
const SCALE = args.has('--quick') ? 0.1 : 1;
const CONFIG = {
  window_seconds: 60,
  job_rows_per_second: 0,
  accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: 1e9 }],
};

async function startChild(): Promise<{ origin: string; child: ChildProcess }> {
  return startSandboxProcess(CONFIG);
}

interface Scenario {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: (i: number) => string;
  headers?: (i: number) => Record<string, string>;
  requests: number;
  connections: number;
  expectStatus: number;
  elements?: number;
}

/** CPU seconds (user + system) used so far by a process, from /proc (Linux); null elsewhere. */
function cpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime in clock ticks (USER_HZ = 100)
  } catch {
    return null;
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

interface Measured {
  rps: number;
  /** Server CPU ms per request (child process only). */
  cpuMs: number | null;
}

/** Runs one scenario, prints its line, returns requests/s and server CPU per request. */
async function run(origin: string, s: Scenario, serverPid?: number): Promise<Measured> {
  const pool = new Pool(origin, { connections: s.connections, pipelining: 1 });
  const latencies: number[] = [];
  let next = 0;
  let bad = 0;
  const worker = async (): Promise<void> => {
    while (next < s.requests) {
      const i = next++;
      const t0 = performance.now();
      const r = await pool.request({
        method: s.method,
        path: s.path,
        headers: { authorization: 'Bearer sk_test_demo_ok', ...(s.body ? { 'content-type': 'application/json' } : {}), ...(s.headers?.(i) ?? {}) },
        body: s.body?.(i),
      });
      await r.body.arrayBuffer();
      latencies.push(performance.now() - t0);
      if (r.statusCode !== s.expectStatus) bad++;
    }
  };
  // warm-up
  const warm = Math.min(50, Math.ceil(s.requests / 10));
  for (let i = 0; i < warm; i++) {
    const r = await pool.request({ method: s.method, path: s.path, headers: { authorization: 'Bearer sk_test_demo_ok', ...(s.body ? { 'content-type': 'application/json' } : {}), ...(s.headers?.(-1 - i) ?? {}) }, body: s.body?.(-1 - i) });
    await r.body.arrayBuffer();
  }
  const cpu0 = cpuSeconds(serverPid);
  const t0 = performance.now();
  await Promise.all(Array.from({ length: s.connections }, worker));
  const secs = (performance.now() - t0) / 1000;
  const cpu1 = cpuSeconds(serverPid);
  const serverCpu = cpu0 !== null && cpu1 !== null ? `  server CPU ${(((cpu1 - cpu0) / s.requests) * 1000).toFixed(2)} ms/req (${Math.round(((cpu1 - cpu0) / secs) * 100)}% of a core)` : '';
  await pool.close();
  latencies.sort((a, b) => a - b);
  const rps = s.requests / secs;
  const extra = s.elements ? `  (${Math.round(rps * s.elements).toLocaleString('en-US')} elements/s)` : '';
  console.log(
    `${s.name.padEnd(44)} ${String(s.requests).padStart(6)} req in ${secs.toFixed(2).padStart(6)} s  ${rps.toFixed(0).padStart(7)} req/s${extra}` +
      `  p50 ${percentile(latencies, 50).toFixed(2)} ms  p99 ${percentile(latencies, 99).toFixed(2)} ms` +
      serverCpu +
      (bad ? `  !! ${bad} unexpected statuses` : ''),
  );
  if (bad) process.exitCode = 1;
  return { rps, cpuMs: cpu0 !== null && cpu1 !== null ? ((cpu1 - cpu0) / s.requests) * 1000 : null };
}

const CHROMIUM = process.env.CHROMIUM_PATH || commandPath('chromium');

function procCmdline(pid: string): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return '';
  }
}

/** Runs `fn` while the inbox is open and live in headless Chromium (fresh profile). */
async function withInboxOpen<T>(origin: string, fn: () => Promise<T>): Promise<T> {
  const profile = mkdtempSync(join(tmpdir(), 'bench-inbox-'));
  const context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM!, args: CHROMIUM_ARGS, headless: true, viewport: { width: 1440, height: 1100 } });
  try {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto(`${origin}/`);
    await page.waitForSelector('#live.on');
    const pids = readdirSync('/proc').filter((p) => /^\d+$/.test(p) && procCmdline(p).includes(profile)).map(Number);
    const cpu = (): number => pids.reduce((s, p) => s + (cpuSeconds(p) ?? 0), 0);
    const cpu0 = cpu();
    const t0 = performance.now();
    const result = await fn();
    console.log(`  (Chromium with the inbox open used ${Math.round(((cpu() - cpu0) / ((performance.now() - t0) / 1000)) * 100)}% of a core meanwhile)`);
    return result;
  } finally {
    await context.close();
    rmSync(profile, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  let origin: string;
  let stop: () => Promise<void>;
  let pid: number | undefined;
  if (args.has('--in-process')) {
    const sb = await start({ port: 0, config: CONFIG });
    origin = sb.origin;
    stop = () => sb.close();
  } else {
    const { origin: o, child } = await startChild();
    origin = o;
    pid = child.pid;
    stop = () =>
      new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
  }
  const batch500 = JSON.stringify({
    messages: Array.from({ length: 500 }, (_, i) =>
      i % 2 === 0
        ? { channel: 'whatsapp', to: `+49151${1000000 + i}`, body: `Hello number ${i}, your order has shipped.` }
        : { channel: 'email', to: `user${i}@example.com`, subject: 'Your order', body: `<p>Hello ${i}, your order has shipped.</p>` },
    ),
  });
  console.log(`sandbox ${args.has('--in-process') ? 'in-process' : 'child process'} at ${origin}; node ${process.version}; batch body ${(batch500.length / 1024).toFixed(1)} KiB`);
  const n = (x: number): number => Math.max(20, Math.round(x * SCALE));
  if (!args.has('--inbox-only')) await scenarios(origin, batch500, n, pid);
  const batches: Scenario = { name: '', method: 'POST', path: '/v1/messages/batch', body: () => batch500, requests: n(600), connections: 4, expectStatus: 200, elements: 500 };
  if (!CHROMIUM) console.log('inbox open vs closed: skipped (no chromium on PATH)');
  else {
    // Interleaved rounds (closed, open, closed, open, closed), so drifting machine load hits both alike.
    const closed: Measured[] = [];
    const open: Measured[] = [];
    for (let round = 0; round < 7; round++) {
      if (round % 2 === 0) closed.push(await run(origin, { ...batches, name: `batch x500, inbox closed (${round / 2 + 1})` }, pid));
      else open.push(await withInboxOpen(origin, () => run(origin, { ...batches, name: `batch x500, inbox open and live (${(round + 1) / 2})` }, pid)));
    }
    const median = (xs: number[]): number => {
      const s = xs.slice().sort((a, b) => a - b);
      return (s[Math.floor((s.length - 1) / 2)]! + s[Math.ceil((s.length - 1) / 2)]!) / 2;
    };
    const rps = median(open.map((m) => m.rps)) / median(closed.map((m) => m.rps));
    console.log(`inbox open / closed: throughput ${rps.toFixed(2)} (goal >= 0.9, medians)`);
    if (pid !== undefined) console.log(`inbox open / closed: server CPU per batch ${(median(open.map((m) => m.cpuMs ?? 0)) / median(closed.map((m) => m.cpuMs ?? 0))).toFixed(2)} (1.00 = the open page costs the server nothing per batch)`);
  }
  await stop();
}

async function scenarios(origin: string, batch500: string, n: (x: number) => number, pid: number | undefined): Promise<void> {
  await run(origin, { name: 'GET /v1/account (8 connections)', method: 'GET', path: '/v1/account', requests: n(40000), connections: 8, expectStatus: 200 }, pid);
  await run(origin, { name: 'POST /v1/messages/batch x500 (4 connections)', method: 'POST', path: '/v1/messages/batch', body: () => batch500, requests: n(600), connections: 4, expectStatus: 200, elements: 500 }, pid);
  await run(origin, {
    name: 'POST /v1/messages/batch x500 + Idempotency-Key',
    method: 'POST',
    path: '/v1/messages/batch',
    body: () => batch500,
    headers: (i) => ({ 'idempotency-key': `bench-${i}` }),
    requests: n(400),
    connections: 4,
    expectStatus: 200,
    elements: 500,
  }, pid);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
