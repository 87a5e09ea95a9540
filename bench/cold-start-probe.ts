/**
 * The action's cold start, probed: a local HTTP server that answers one batch send, the environment a
 * runner gives the action's send step, and the time from spawning node to the first request reaching
 * that server. Shared by `npm run bench` (action-figures.ts) and bench/action-startup.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment a runner gives the action's send step (a release event, email to one recipient). */
export function actionSendEnv(base: string, temp: string): Record<string, string> {
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
    'INPUT_ENV-VARS': '',
  };
}

export interface ColdStartProbe {
  /** The API base URL the server answers on (`…/v1`). */
  base: string;
  /** ms from spawning `node …args` to its first request, or to its exit when `toExit`. */
  once(args: string[], toExit: boolean): Promise<number>;
  /** Stops the server and removes the step's temporary files. */
  close(): void;
}

export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function startColdStartProbe(): Promise<ColdStartProbe> {
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
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const temp = mkdtempSync(join(tmpdir(), 'action-startup-'));
  const env = actionSendEnv(base, temp);

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

  return {
    base,
    once,
    close() {
      server.close();
      rmSync(temp, { recursive: true, force: true });
    },
  };
}
