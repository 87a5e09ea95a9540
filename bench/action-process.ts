/**
 * Runs the built action (action/dist/index.js) the way the runner starts it — `node dist/index.js` with
 * INPUT_* (action.yml's defaults filled in), GITHUB_* env, GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files and
 * RUNNER_TEMP — under GNU `/usr/bin/time -v`, and reads the process's peak RSS from its report.
 * stdout goes to a file (a big run's log is never held here); only its ::error lines are read back.
 */
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';

/** The repository (benches run from its root, as `npm run` starts them). */
export const ROOT = process.cwd();
export const DIST = join(ROOT, 'action', 'dist', 'index.js');

/** Peak RSS in bytes from a GNU time -v report ("Maximum resident set size (kbytes): N"), or NaN. */
export function peakRssFromTimeReport(report: string): number {
  const kb = /Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1];
  return kb === undefined ? NaN : Number(kb) * 1024;
}

/** `::error file=F,line=N,...::message` workflow commands in a log, with their file and line. */
export function errorAnnotations(log: string): { file?: string; line?: number; message: string }[] {
  return [...log.matchAll(/^::error(?: (.*?))?::(.*)$/gm)].map((m) => {
    const props = Object.fromEntries((m[1] ?? '').split(',').map((p) => p.split('=') as [string, string]));
    return { file: props.file, line: props.line === undefined ? undefined : Number(props.line), message: m[2]! };
  });
}

/** The GITHUB_OUTPUT file: `name<<delimiter` … `delimiter` blocks, or `name=value` lines. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]!);
    if (!heredoc) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]!);
    outputs[heredoc[1]!] = value.join('\n');
  }
  return outputs;
}

const DEFAULTS = Object.fromEntries(
  Object.entries((parse(readFileSync(join(ROOT, 'action', 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> }).inputs).map(([k, v]) => [k, v.default ?? '']),
);

export interface ActionRunOptions {
  inputs: Record<string, string>;
  workspace: string;
  eventName?: string;
  event?: unknown;
  /** Extra env (e.g. NODE_OPTIONS). */
  env?: Record<string, string>;
  /** Kill the action (SIGKILL, so time -v still reports its peak) when it runs longer than this. */
  timeoutSeconds?: number;
}

export interface ActionRun {
  code: number;
  /** Signal that ended the process (e.g. SIGABRT on heap exhaustion), if any. */
  signal: string | null;
  peakRss: number;
  seconds: number;
  outputs: Record<string, string>;
  errors: ReturnType<typeof errorAnnotations>;
  /** V8 gave up: "JavaScript heap out of memory" on stderr. */
  heapOutOfMemory: boolean;
  timedOut: boolean;
}

export async function runAction(options: ActionRunOptions): Promise<ActionRun> {
  const temp = mkdtempSync(join(tmpdir(), 'action-memory-runner-'));
  try {
    const files = { output: join(temp, 'output'), summary: join(temp, 'summary'), event: join(temp, 'event.json'), time: join(temp, 'time'), log: join(temp, 'log'), err: join(temp, 'err') };
    for (const f of [files.output, files.summary]) writeFileSync(f, '');
    writeFileSync(files.event, JSON.stringify(options.event ?? {}));
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? temp,
      CI: 'true',
      GITHUB_ACTIONS: 'true',
      GITHUB_OUTPUT: files.output,
      GITHUB_STEP_SUMMARY: files.summary,
      GITHUB_WORKSPACE: options.workspace,
      GITHUB_EVENT_PATH: files.event,
      GITHUB_EVENT_NAME: options.eventName ?? 'workflow_dispatch',
      GITHUB_REPOSITORY: 'acme/shop',
      GITHUB_RUN_ID: String(Date.now()),
      GITHUB_RUN_ATTEMPT: '1',
      GITHUB_JOB: 'bench',
      GITHUB_ACTION: 'bench',
      RUNNER_TEMP: temp,
      RUNNER_OS: 'Linux',
      ...options.env,
    };
    for (const [name, value] of Object.entries({ ...DEFAULTS, ...options.inputs })) env[`INPUT_${name.toUpperCase()}`] = value;
    const out = openSync(files.log, 'w');
    const err = openSync(files.err, 'w');
    const started = performance.now();
    let timedOut = false;
    const { code, signal } = await new Promise<{ code: number; signal: string | null }>((resolve, reject) => {
      const child = spawn('/usr/bin/time', ['-v', '-o', files.time, process.execPath, DIST], { env, cwd: options.workspace, stdio: ['ignore', out, err] });
      // The action is time's only child: kill it by its parent's pid, and time still writes its report.
      const timer = options.timeoutSeconds === undefined ? undefined : setTimeout(() => {
        timedOut = true;
        execFileSync('pkill', ['-KILL', '-P', String(child.pid)]);
      }, options.timeoutSeconds * 1000);
      child.on('error', reject);
      child.on('exit', (c, s) => {
        clearTimeout(timer);
        resolve({ code: c ?? 1, signal: s });
      });
    });
    closeSync(out);
    closeSync(err);
    const report = readFileSync(files.time, 'utf8');
    const stderr = readFileSync(files.err, 'utf8');
    // time -v reports a child killed by a signal as "Command terminated by signal N" and exits 128 + N.
    const killed = /Command terminated by signal (\d+)/.exec(report)?.[1];
    return {
      code,
      signal: signal ?? (killed === undefined ? null : `signal ${killed}`),
      peakRss: peakRssFromTimeReport(report),
      seconds: (performance.now() - started) / 1000,
      outputs: parseOutputs(readFileSync(files.output, 'utf8')),
      errors: errorAnnotations(readFileSync(files.log, 'utf8')),
      heapOutOfMemory: /JavaScript heap out of memory/.test(stderr),
      timedOut,
    };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}
