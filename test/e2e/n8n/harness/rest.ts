/**
 * n8n's REST API the way the editor calls it (2.41.1): sign in for a session cookie, create and run
 * workflows, read and retry executions. Execution data comes back `flatted`-encoded; it is decoded with
 * the host's own `flatted`. One connection per request: a reused keep-alive socket that n8n closes
 * meanwhile fails a non-idempotent POST (a retry) with ECONNRESET after n8n may have started it.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Agent, fetch } from 'undici';
import type { N8nHome } from './home.ts';
import type { N8nWorkflow } from './workflows.ts';

const oneShot = new Agent({ pipelining: 0 });

export interface OwnerLogin {
  email: string;
  password: string;
}

/** Env that makes `n8n start` create this owner itself (bcrypt hash, as n8n stores it). */
export function ownerEnv(home: N8nHome, owner: OwnerLogin): NodeJS.ProcessEnv {
  const hostRequire = createRequire(join(home.hostDir, 'node_modules', 'n8n', 'package.json'));
  const bcrypt = hostRequire('bcryptjs') as { hashSync(pw: string, rounds: number): string };
  return {
    N8N_INSTANCE_OWNER_MANAGED_BY_ENV: 'true',
    N8N_INSTANCE_OWNER_EMAIL: owner.email,
    N8N_INSTANCE_OWNER_PASSWORD_HASH: bcrypt.hashSync(owner.password, 10),
    N8N_INSTANCE_OWNER_FIRST_NAME: 'Local',
    N8N_INSTANCE_OWNER_LAST_NAME: 'Owner',
  };
}

export interface ExecutionSummary {
  id: string;
  mode: string;
  status: string;
  finished: boolean;
  retryOf?: string | null;
  stoppedAt?: string | null;
  /** The run (IRunExecutionData), decoded. */
  data?: any;
  customData?: Record<string, string>;
}

export class N8nRestError extends Error {
  readonly status: number;
  readonly body: string;
  constructor(message: string, status: number, body: string) {
    super(message);
    this.name = 'N8nRestError';
    this.status = status;
    this.body = body;
  }
}

export class N8nRest {
  private cookie = '';
  private readonly browserId = randomUUID();
  private readonly parseFlatted: (text: string) => unknown;

  readonly baseUrl: string;

  constructor(baseUrl: string, home: N8nHome) {
    this.baseUrl = baseUrl;
    const hostRequire = createRequire(join(home.hostDir, 'node_modules', 'n8n', 'package.json'));
    this.parseFlatted = (hostRequire('flatted') as { parse(text: string): unknown }).parse;
  }

  /** `POST /rest/login`: keeps the `n8n-auth` cookie for every later call. */
  async login(owner: OwnerLogin): Promise<void> {
    const res = await fetch(`${this.baseUrl}/rest/login`, {
      dispatcher: oneShot,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'browser-id': this.browserId },
      body: JSON.stringify({ emailOrLdapLoginId: owner.email, password: owner.password }),
    });
    if (!res.ok) throw new N8nRestError(`POST /rest/login answered ${res.status}`, res.status, await res.text());
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
    if (!cookie) throw new Error('POST /rest/login set no n8n-auth cookie');
    this.cookie = cookie.split(';')[0]!;
  }

  async call<T = any>(method: string, path: string, body?: unknown, timeoutMs = 300_000): Promise<T> {
    let res;
    try {
      res = await fetch(`${this.baseUrl}${path}`, {
        dispatcher: oneShot,
        method,
        headers: { cookie: this.cookie, 'browser-id': this.browserId, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new Error(`${method} ${path}: ${error instanceof Error ? `${error.message} (${String((error as { cause?: unknown }).cause)})` : String(error)}`);
    }
    const text = await res.text();
    if (!res.ok) throw new N8nRestError(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`, res.status, text);
    const parsed = text ? (JSON.parse(text) as { data?: T }) : {};
    return (parsed.data ?? parsed) as T;
  }

  /** `POST /rest/workflows` (the editor's Save of a new workflow); resolves to its id and versionId. */
  async createWorkflow(wf: Omit<N8nWorkflow, 'id'> & { id?: string }): Promise<{ id: string; versionId: string }> {
    const { id: _ignored, ...body } = wf;
    void _ignored;
    const created = await this.call<{ id: string; versionId: string }>('POST', '/rest/workflows', { active: false, settings: {}, ...body });
    return { id: created.id, versionId: created.versionId };
  }

  /** `PATCH /rest/workflows/:id` (the editor's Save of an existing workflow). */
  async updateWorkflow(id: string, changes: Record<string, unknown>): Promise<{ versionId: string }> {
    const current = await this.call<Record<string, unknown>>('GET', `/rest/workflows/${id}`);
    return this.call('PATCH', `/rest/workflows/${id}`, { ...current, ...changes });
  }

  /** `POST /rest/workflows/:id/run` from the trigger node (the editor's "Execute workflow"). */
  async runWorkflow(id: string, trigger = 'Start'): Promise<string> {
    const started = await this.call<{ executionId: string }>('POST', `/rest/workflows/${id}/run`, { triggerToStartFrom: { name: trigger } });
    return started.executionId;
  }

  /** `POST /rest/workflows/:id/activate` with its current versionId (the editor's Publish): production webhooks listen. */
  async activateWorkflow(id: string): Promise<void> {
    const { versionId } = await this.call<{ versionId: string }>('GET', `/rest/workflows/${id}`);
    await this.call('POST', `/rest/workflows/${id}/activate`, { versionId });
  }

  /**
   * `POST /webhook/<path>` (a production webhook, no session): resolves to n8n's answer. n8n may
   * register an activated workflow's webhook a moment after answering the activation: a 404 "not
   * registered" (nothing started) is asked again until `registrationMs` passed.
   */
  async postWebhook(path: string, body: unknown, registrationMs = 60_000): Promise<unknown> {
    const deadline = Date.now() + registrationMs;
    for (;;) {
      const res = await fetch(`${this.baseUrl}/webhook/${path}`, { dispatcher: oneShot, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.ok) return text ? JSON.parse(text) : undefined;
      if (res.status !== 404 || !text.includes('is not registered') || Date.now() > deadline) {
        throw new N8nRestError(`POST /webhook/${path} answered ${res.status}: ${text.slice(0, 500)}`, res.status, text);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** The executions list of one workflow (`GET /rest/executions?filter=…`), newest first, without run data. */
  async executions(workflowId: string): Promise<ExecutionSummary[]> {
    const page = await this.call<{ results: ExecutionSummary[] }>('GET', `/rest/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}&limit=50`);
    return page.results;
  }

  /** `GET /rest/executions/:id` with its run data decoded. */
  async execution(id: string): Promise<ExecutionSummary> {
    const raw = await this.call<ExecutionSummary & { data?: string }>('GET', `/rest/executions/${id}`);
    return { ...raw, data: typeof raw.data === 'string' ? this.parseFlatted(raw.data) : raw.data };
  }

  /** Polls until the execution stopped (finished, failed or canceled). */
  async waitForExecution(id: string, timeoutMs = 300_000): Promise<ExecutionSummary> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const execution = await this.call<ExecutionSummary>('GET', `/rest/executions/${id}`).catch((error: unknown) => {
        if (error instanceof N8nRestError && error.status === 404) return undefined; // not saved yet
        // n8n answers 503 "Database is not ready!" while its periodic DB ping is late (a loaded machine).
        if (error instanceof N8nRestError && error.status === 503) return undefined;
        throw error;
      });
      if (execution && execution.stoppedAt && !['running', 'new', 'waiting'].includes(execution.status)) return this.execution(id);
      if (Date.now() > deadline) throw new Error(`execution ${id} did not stop within ${timeoutMs} ms (status ${execution?.status})`);
      await new Promise((r) => setTimeout(r, 300));
    }
  }

  /**
   * `POST /rest/executions/:id/retry` — the executions list's "Retry with original workflow"
   * (`loadWorkflow: false`) or "… with currently saved workflow" (`true`). n8n answers when the retry
   * has finished; resolves to the new execution, read back in full.
   */
  async retry(id: string, loadWorkflow: boolean): Promise<ExecutionSummary> {
    const retried = await this.call<{ id: string }>('POST', `/rest/executions/${id}/retry`, { loadWorkflow });
    return this.waitForExecution(String(retried.id));
  }
}

/** The json of each item on `output` of the last run of `nodeName` in a decoded execution. */
export function executionItems(execution: ExecutionSummary, nodeName: string, output = 0): Array<Record<string, any>> {
  const runs = execution.data?.resultData?.runData?.[nodeName] as any[] | undefined;
  if (!runs?.length) return [];
  const items = (runs[runs.length - 1].data?.main?.[output] ?? []) as Array<{ json: Record<string, any> }>;
  return items.map((item) => item.json);
}

/** The execution hints (`this.addExecutionHints`: what the editor shows on the node) of the last run of `nodeName`. */
export function executionHints(execution: ExecutionSummary, nodeName: string): string[] {
  const runs = execution.data?.resultData?.runData?.[nodeName] as any[] | undefined;
  const hints = (runs?.[runs.length - 1]?.hints ?? []) as Array<{ message?: string }>;
  return hints.map((hint) => String(hint.message ?? ''));
}
