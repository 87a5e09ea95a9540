/**
 * One measured execution of `npm run bench:n8n-scale`, in a fresh `n8n start` (regular mode, SQLite,
 * manual executions saved, as n8n ships): the previous run's heap never counts as this run's "before".
 * The fresh n8n first runs the same variant at WARM_UP_ITEMS, so loading the node types and compiling
 * their code is not counted either. Then the measured workflow runs from its Manual Trigger over the
 * REST API, as the editor's "Execute workflow" does, while n8n main's RSS is watched (proc-memory.ts).
 */
import type { Sandbox } from '../sandbox/server.ts';
import { N8nRest, ownerEnv, startN8n, type N8nHome, type OwnerLogin } from '../test/e2e/n8n/n8n-harness.ts';
import { allRows } from '../test/support/ledger-rows.ts';
import { accountLedger, type LedgerAccount, type RunFigures, type Variant } from './n8n-scale-figures.ts';
import { MEASURED, scaleWorkflow } from './n8n-scale-workflows.ts';
import { watchPeakRss } from './proc-memory.ts';

export const WARM_UP_ITEMS = 100;
/** Lets n8n finish saving the warm-up's execution before "before" is read. */
const SETTLE_MS = 2000;
const POLL_MS = 200;

export interface ScaleContext {
  home: N8nHome;
  sandbox: Sandbox;
  owner: OwnerLogin;
  /** Bounds one execution. */
  timeoutMs: number;
  /** Extra env for n8n (e.g. NODE_OPTIONS with --cpu-prof, to see where a node's time goes). */
  n8nEnv?: NodeJS.ProcessEnv;
}

export interface MeasuredRun {
  figures: RunFigures;
  /** Present for the Send Batch variants. */
  ledger?: LedgerAccount;
  highWaterMarkReset: boolean;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls the executions list (no run data: reading an execution's data through n8n main would grow the
 * very RSS being measured) until the workflow's one execution has stopped.
 */
async function waitStopped(rest: N8nRest, workflowId: string, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [execution] = await rest.executions(workflowId).catch(() => []);
    if (execution?.stoppedAt && !['running', 'new', 'waiting'].includes(execution.status)) {
      if (execution.status !== 'success') throw new Error(`execution ${execution.id} ended ${execution.status}`);
      return execution.id;
    }
    if (Date.now() > deadline) throw new Error(`workflow ${workflowId} did not stop within ${timeoutMs} ms`);
    await sleep(POLL_MS);
  }
}

async function runOnce(rest: N8nRest, variant: Variant, items: number, name: string, timeoutMs: number): Promise<{ workflowId: string; executionId: string }> {
  const { id: workflowId } = await rest.createWorkflow(scaleWorkflow(variant, items, name));
  await rest.runWorkflow(workflowId);
  return { workflowId, executionId: await waitStopped(rest, workflowId, timeoutMs) };
}

export async function measureRun(ctx: ScaleContext, variant: Variant, items: number, label: string): Promise<MeasuredRun> {
  const server = await startN8n(ctx.home, { env: { ...ownerEnv(ctx.home, ctx.owner), ...ctx.n8nEnv }, timeoutMs: 5 * 60_000 });
  try {
    const pid = server.process.pid;
    if (pid === undefined) throw new Error('n8n main has no pid');
    const rest = new N8nRest(server.url, ctx.home);
    await rest.login(ctx.owner);
    const warm = await runOnce(rest, variant, WARM_UP_ITEMS, `${label} warm-up`, ctx.timeoutMs);
    await rest.call('POST', '/rest/executions/delete', { ids: [warm.executionId] });
    ctx.sandbox.control.reset();
    await sleep(SETTLE_MS);

    const { id: workflowId } = await rest.createWorkflow(scaleWorkflow(variant, items, label));
    const watch = watchPeakRss(pid);
    await rest.runWorkflow(workflowId);
    let executionId: string;
    let peak: number;
    try {
      executionId = await waitStopped(rest, workflowId, ctx.timeoutMs);
    } finally {
      peak = watch.stop();
    }

    const execution = await rest.execution(executionId);
    const nodeRun = execution.data?.resultData?.runData?.[MEASURED]?.[0] as { executionTime?: number; error?: { message?: string } } | undefined;
    if (!nodeRun || typeof nodeRun.executionTime !== 'number') throw new Error(`execution ${executionId} has no run of "${MEASURED}"`);
    if (nodeRun.error) throw new Error(`"${MEASURED}" failed: ${nodeRun.error.message}`);
    const raw = execution as unknown as { startedAt: string; stoppedAt: string };
    const figures: RunFigures = {
      nodeMs: nodeRun.executionTime,
      wallMs: Date.parse(raw.stoppedAt) - Date.parse(raw.startedAt),
      addedRssBytes: peak - watch.startBytes,
      baseRssBytes: watch.startBytes,
    };
    const ledger = variant.startsWith('sendBatch') ? accountLedger(allRows(ctx.sandbox.control, 'messages'), items) : undefined;
    // A 100,000-item execution is tens of MB in SQLite: keep the home small across dozens of runs.
    await rest.call('POST', '/rest/executions/delete', { ids: [executionId] });
    return { figures, ledger, highWaterMarkReset: watch.highWaterMarkReset };
  } finally {
    await server.stop();
  }
}
