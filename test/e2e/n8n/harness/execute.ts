/** `n8n execute --rawOutput`: running a workflow through the CLI and reading the run it prints. */
import { n8n, N8nCommandError, type N8nHome } from './home.ts';
import { tail } from './processes.ts';

export interface ExecuteResult {
  /** `raw.data.resultData.runData`: node name -> task data array (see outputItems). */
  runData: Record<string, any[]>;
  /** The whole run object n8n printed (IRun: data, mode, status, startedAt, stoppedAt, …). */
  raw: any;
  /** `raw.status`: 'success' | 'error' | … */
  status: string | undefined;
  /** `raw.data.resultData.error` (serialized NodeApiError / NodeOperationError), when the run failed. */
  error: any;
  /** n8n's exit code (1 when the workflow failed; null when it died by a signal). */
  code: number | null;
  signal: NodeJS.Signals | null;
  /**
   * n8n printed the complete run and then died by a signal (seen: SIGSEGV in ~10% of `execute` runs,
   * at exit, from the isolated-vm expression engine under Node 24). The run is still the truth.
   */
  crashedAtExit: boolean;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/**
 * Finds the run JSON in n8n's stdout: log lines come before it (task broker, license SDK, …) and, on a
 * failed run, an "Execution error:" block after it; the object is pretty-printed with its first line
 * `{` and its last line `}`. Tries each `{` line with each later `}` line, longest first.
 * Returns the run and the text around it (`logs`).
 */
export function parseRunOutput(stdout: string): { run: any; logs: string } {
  const lines = stdout.split('\n').map((line) => line.replace(/\r$/, ''));
  const opens: number[] = [];
  const closes: number[] = [];
  lines.forEach((line, i) => {
    if (line === '{' || line.startsWith('{"')) opens.push(i);
    if (line === '}' || line.endsWith('}')) closes.push(i);
  });
  for (const open of opens) {
    for (let c = closes.length - 1; c >= 0; c--) {
      const close = closes[c]!;
      if (close < open) break;
      let value: any;
      try {
        value = JSON.parse(lines.slice(open, close + 1).join('\n'));
      } catch {
        continue;
      }
      if (value && typeof value === 'object' && value.data && typeof value.data === 'object' && 'resultData' in value.data) {
        return { run: value, logs: [...lines.slice(0, open), ...lines.slice(close + 1)].join('\n').trim() };
      }
    }
  }
  throw new Error(`no run JSON found in n8n's output:\n${tail(stdout, 60)}`);
}

/**
 * `n8n execute --id=<id> --rawOutput` (n8n boots, runs the workflow from its Manual Trigger, prints the
 * run, exits: ~2.5 s). Resolves with the parsed run. A failed run (n8n exits 1, `status: 'error'`)
 * throws N8nCommandError whose message has the node's error message and n8n's log text — unless
 * `allowFailure`, then the result (with `error`, `status`, `code`) is returned for assertions.
 */
export async function executeWorkflow(home: N8nHome, id: string, opts: { timeoutMs?: number; allowFailure?: boolean } = {}): Promise<ExecuteResult> {
  const args = ['execute', `--id=${id}`, '--rawOutput'];
  const result = await n8n(home, args, { timeoutMs: opts.timeoutMs ?? 180_000, allowFailure: true });
  let parsed: { run: any; logs: string };
  try {
    parsed = parseRunOutput(result.stdout);
  } catch {
    throw new N8nCommandError(
      `n8n execute --id=${id} ${result.timedOut ? `timed out after ${result.durationMs} ms` : `exited ${result.code}`} without printing a run:\n` +
        `--- stdout ---\n${tail(result.stdout)}\n--- stderr ---\n${tail(result.stderr)}`,
      args,
      result,
    );
  }
  const raw = parsed.run;
  const runData = (raw.data.resultData.runData ?? {}) as Record<string, any[]>;
  const error = raw.data.resultData.error;
  // A crash after the complete run was printed does not change the run: judge by the run then.
  const crashedAtExit = !result.timedOut && result.code === null && result.signal !== null;
  const exitFailed = crashedAtExit ? false : result.code !== 0;
  const failed = exitFailed || result.timedOut || Boolean(error) || (raw.status !== undefined && raw.status !== 'success');
  if (failed && !opts.allowFailure) {
    const where = error?.node?.name ? ` in node "${error.node.name}"` : '';
    const why = error?.message ?? (result.timedOut ? `timed out after ${result.durationMs} ms` : `n8n exited ${result.code ?? result.signal}, status ${raw.status}`);
    throw new N8nCommandError(
      `workflow ${id} failed${where}: ${why}` +
        (error?.description ? ` — ${error.description}` : '') +
        `\n--- n8n output (without the run JSON) ---\n${tail(parsed.logs)}` +
        (result.stderr.trim() ? `\n--- stderr ---\n${tail(result.stderr)}` : ''),
      args,
      result,
    );
  }
  return {
    runData,
    raw,
    status: raw.status,
    error,
    code: result.code,
    signal: result.signal,
    crashedAtExit,
    stdout: result.stdout,
    stderr: result.stderr,
    durationMs: result.durationMs,
  };
}

/** The `json` of every item on output `output` (default 0) of the last run of node `nodeName`. */
export function outputItems(runData: Record<string, any[]>, nodeName: string, output = 0): Array<Record<string, unknown>> {
  const runs = runData[nodeName];
  if (!runs || runs.length === 0) throw new Error(`node "${nodeName}" did not run (ran: ${Object.keys(runData).join(', ')})`);
  const last = runs[runs.length - 1];
  if (last.error) throw new Error(`node "${nodeName}" failed: ${last.error.message ?? JSON.stringify(last.error)}`);
  const items = (last.data?.main?.[output] ?? []) as Array<{ json: Record<string, unknown> }>;
  return items.map((item) => item.json);
}

/** Times the steps of an e2e run by label, for the timings line each suite prints. */
export function stopwatch(): { timings: Record<string, number>; time<T>(label: string, fn: () => Promise<T>): Promise<T> } {
  const timings: Record<string, number> = {};
  return {
    timings,
    async time<T>(label: string, fn: () => Promise<T>): Promise<T> {
      const t = Date.now();
      try {
        return await fn();
      } finally {
        timings[label] = Date.now() - t;
      }
    },
  };
}
