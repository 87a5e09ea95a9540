/**
 * The GitHub Action's two headline figures for `npm run bench`: the committed bundle's size, and the cold start from spawning
 * `node action/dist/index.js` (send mode, as the runner runs it) to its first request reaching a local
 * HTTP server, against spawning `node -e ''` until it exits. Medians of interleaved rounds.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Row } from './results.ts';
import { ratio } from './results.ts';

const DIST = join(process.cwd(), 'action', 'dist');
const RUNS = 15;
/** The goal the action's bundle was held to when it was slimmed (see docs/benchmarks.md). */
const BUNDLE_GOAL_BYTES = 1.8e6;

/** Bytes of JavaScript in the dist: the entry plus its lazily loaded chunks (not source maps). */
export function measureBundleSize(): Row[] {
  const bytes = readdirSync(DIST)
    .filter((f) => /\.(m?js|cjs)$/.test(f))
    .reduce((n, f) => n + statSync(join(DIST, f)).size, 0);
  const entry = statSync(join(DIST, 'index.js')).size;
  return [
    { figure: 'action bundle size (action/dist, all .js)', ours: `${(bytes / 1e6).toFixed(2)} MB`, reference: `${(BUNDLE_GOAL_BYTES / 1e6).toFixed(2)} MB (goal)`, ratio: ratio(bytes, BUNDLE_GOAL_BYTES) },
    { figure: '  of which loaded by every step (index.js)', ours: `${(entry / 1e6).toFixed(2)} MB`, reference: `${(BUNDLE_GOAL_BYTES / 1e6).toFixed(2)} MB (goal)`, ratio: ratio(entry, BUNDLE_GOAL_BYTES) },
  ];
}

/** The environment a runner gives the action's send step. */
function actionEnv(base: string, temp: string): Record<string, string> {
  writeFileSync(join(temp, 'event.json'), JSON.stringify({ release: { tag_name: 'v1.0.0' } }));
  return {
    PATH: process.env.PATH ?? '',
    GITHUB_OUTPUT: join(temp, 'output'),
    GITHUB_STEP_SUMMARY: join(temp, 'summary'),
    GITHUB_WORKSPACE: temp,
    GITHUB_EVENT_PATH: join(temp, 'event.json'),
    GITHUB_EVENT_NAME: 'release',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_RUN_ID: '1',
    GITHUB_RUN_ATTEMPT: '1',
    GITHUB_JOB: 'bench',
    GITHUB_ACTION: 'bench',
    INPUT_MODE: 'send',
    'INPUT_API-KEY': 'sk_bench',
    'INPUT_BASE-URL': base,
    INPUT_CHANNEL: 'email',
    INPUT_TO: 'a@example.com',
    INPUT_BODY: 'Released {{ event.release.tag_name }}',
    INPUT_WAIT: 'true',
    'INPUT_WAIT-TIMEOUT': '60',
    'INPUT_MAX-RATE-LIMIT-WAIT': '60',
    'INPUT_FAIL-ON-ERROR': 'true',
    'INPUT_DRY-RUN': 'false',
    'INPUT_FILE-FORMAT': 'auto',
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function measureColdStart(): Promise<Row[]> {
  let firstRequestAt: ((t: number) => void) | undefined;
  const server = createServer((req, res) => {
    const t = performance.now();
    req.resume();
    req.on('end', () => {
      firstRequestAt?.(t);
      firstRequestAt = undefined;
      const reset = Math.floor(Date.now() / 1000) + 60;
      res.writeHead(200, { 'content-type': 'application/json', 'x-request-id': 'req_bench', 'x-ratelimit-limit': '1000', 'x-ratelimit-remaining': '999', 'x-ratelimit-reset': String(reset) });
      res.end(JSON.stringify({ data: [{ index: 0, id: 'msg_bench' }] }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const temp = mkdtempSync(join(tmpdir(), 'action-startup-'));
  const env = actionEnv(`http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, temp);

  /** ms from spawn to the first request (or to exit when `toExit`). */
  const once = (args: string[], toExit: boolean) =>
    new Promise<number>((resolve, reject) => {
      writeFileSync(env.GITHUB_OUTPUT!, '');
      writeFileSync(env.GITHUB_STEP_SUMMARY!, '');
      const t0 = performance.now();
      let first: number | undefined;
      if (!toExit) firstRequestAt = (t) => (first = t - t0);
      const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
      child.on('error', reject);
      child.on('exit', (code) => {
        if (toExit) return resolve(performance.now() - t0);
        if (code !== 0 || first === undefined) return reject(new Error(`${args.join(' ')} exited ${code} without a request`));
        resolve(first);
      });
    });

  try {
    const bare: number[] = [];
    const action: number[] = [];
    await once(['-e', ''], true); // warm the file cache
    await once([join(DIST, 'index.js')], false);
    // Interleaved, so that machine load hits both alike.
    for (let round = 0; round < RUNS; round++) {
      bare.push(await once(['-e', ''], true));
      action.push(await once([join(DIST, 'index.js')], false));
    }
    const [a, b] = [median(action), median(bare)];
    return [{ figure: `cold start of the action, spawn → first request (median of ${RUNS})`, ours: `${a.toFixed(0)} ms`, reference: `${b.toFixed(0)} ms bare \`node -e ''\``, ratio: ratio(a, b) }];
  } finally {
    server.close();
    rmSync(temp, { recursive: true, force: true });
  }
}
