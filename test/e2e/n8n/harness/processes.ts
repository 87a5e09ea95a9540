/**
 * Child processes of the harness. Our own small module rather than execa: n8n starts task runners as
 * its children, so every process runs in its own process group and a timeout or stop signals the whole
 * group (SIGTERM, then SIGKILL) — execa's timeout and cleanup signal the direct child only.
 * Everything still running, and every temp dir the harness owns, is removed when this process exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  durationMs: number;
  timedOut: boolean;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Receives output as it arrives (e.g. to echo it when debugging). */
  onOutput?: (chunk: string, stream: 'stdout' | 'stderr') => void;
}

const live = new Set<ChildProcess>();
const ownedTemp = new Set<string>();

let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of live) signalGroup(child, 'SIGKILL');
    for (const dir of ownedTemp) rmSync(dir, { recursive: true, force: true });
  });
}

/** Removes `dir` when this process exits. */
export function removeAtExit(dir: string): void {
  installExitHook();
  ownedTemp.add(dir);
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      /* already gone */
    }
  }
}

/** SIGTERM to the child's group, SIGKILL after `graceMs`; resolves once it exited. */
export function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolveStop) => {
    const done = (): void => {
      clearTimeout(hard);
      resolveStop();
    };
    child.once('exit', done);
    signalGroup(child, 'SIGTERM');
    const hard = setTimeout(() => {
      signalGroup(child, 'SIGKILL');
      setTimeout(resolveStop, 1000).unref();
    }, graceMs);
    hard.unref();
  });
}

/** Kills every process this harness started that is still running (call from afterAll). */
export async function killAll(): Promise<void> {
  await Promise.all([...live].map((child) => stopChild(child, 5000)));
}

/** Starts a long-lived process in its own group with piped output; tracked until it exits. */
export function spawnTracked(command: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): ChildProcess {
  installExitHook();
  const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  live.add(child);
  child.on('exit', () => live.delete(child));
  child.on('error', () => live.delete(child));
  return child;
}

/** Runs a command to completion with a hard timeout (SIGTERM, then SIGKILL of its process group). */
export function run(command: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const started = Date.now();
  return new Promise((resolveRun, rejectRun) => {
    const child = spawnTracked(command, args, opts);
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      opts.onOutput?.(chunk, 'stdout');
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      opts.onOutput?.(chunk, 'stderr');
    });
    const timer = setTimeout(() => {
      timedOut = true;
      void stopChild(child, 5000);
    }, timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      rejectRun(err);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolveRun({ code, signal, stdout, stderr, durationMs: Date.now() - started, timedOut });
    });
  });
}

/** The last `lines` lines of a command's output, for error messages. */
export function tail(text: string, lines = 40): string {
  return text.trimEnd().split('\n').slice(-lines).join('\n');
}
