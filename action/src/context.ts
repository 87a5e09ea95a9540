import { readFileSync } from 'node:fs';
import type { ContextLike } from './types.ts';

/**
 * The run context read from the runner's environment, field for field what @actions/github's
 * `context` holds (GITHUB_EVENT_PATH's JSON, GITHUB_* variables), without pulling Octokit into the
 * bundle (see bench/action-startup.ts for the measurement behind that choice). Ids stay strings.
 */
export function readContext(env: NodeJS.ProcessEnv): ContextLike {
  let payload: Record<string, unknown> = {};
  const eventPath = env.GITHUB_EVENT_PATH;
  if (eventPath) {
    try {
      const parsed: unknown = JSON.parse(readFileSync(eventPath, 'utf8'));
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) payload = parsed as Record<string, unknown>;
    } catch (error) {
      // @actions/github prints and goes on with an empty payload; so do we, but templates needing
      // `event.*` then fail by name.
      process.stdout.write(`GITHUB_EVENT_PATH ${eventPath} could not be read: ${(error as Error).message}\n`);
    }
  }
  return {
    payload,
    eventName: env.GITHUB_EVENT_NAME,
    sha: env.GITHUB_SHA,
    ref: env.GITHUB_REF,
    workflow: env.GITHUB_WORKFLOW,
    action: env.GITHUB_ACTION,
    actor: env.GITHUB_ACTOR,
    job: env.GITHUB_JOB,
    runId: env.GITHUB_RUN_ID,
    runNumber: env.GITHUB_RUN_NUMBER,
    runAttempt: env.GITHUB_RUN_ATTEMPT,
    serverUrl: env.GITHUB_SERVER_URL ?? 'https://github.com',
    apiUrl: env.GITHUB_API_URL ?? 'https://api.github.com',
  };
}

/** A context number as text: '' when missing or NaN (@actions/github parses with parseInt). */
function idText(value: number | string | undefined): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  return value.trim();
}

export interface RunInfo {
  repository: string;
  owner: string;
  name: string;
  runId: string;
  runNumber: string;
  runAttempt: string;
  job: string;
  step: string;
  workflow: string;
  eventName: string;
  serverUrl: string;
}

export function runInfo(context: ContextLike, env: NodeJS.ProcessEnv): RunInfo {
  const payloadRepo = context.payload?.repository as { full_name?: string } | undefined;
  const repository = env.GITHUB_REPOSITORY || payloadRepo?.full_name || '';
  const [owner = '', name = ''] = repository.split('/');
  return {
    repository,
    owner,
    name,
    runId: idText(context.runId) || env.GITHUB_RUN_ID || '',
    runNumber: idText(context.runNumber),
    runAttempt: idText(context.runAttempt) || '1',
    job: context.job ?? '',
    step: context.action ?? '',
    workflow: context.workflow ?? '',
    eventName: context.eventName ?? '',
    serverUrl: (context.serverUrl ?? 'https://github.com').replace(/\/+$/, ''),
  };
}

/**
 * The variables templates see (documented in the README):
 * - `event.*`  the event payload (release, push, pull_request, workflow_run, …);
 * - `repo.*`   owner, name, full_name, url;
 * - `run.*`    id, number, attempt, url, workflow, job, step, event_name, actor, ref, ref_name, sha, sha_short;
 * - `env.*`    only the variables named in the `env-vars` input (never INPUT_*, which hold the API key);
 * - `row.*`    (batch) every field of the file's row, including the ones that are not sent.
 */
export function templateScope(context: ContextLike, env: NodeJS.ProcessEnv, envVars: readonly string[]): Record<string, unknown> {
  const info = runInfo(context, env);
  const ref = context.ref ?? env.GITHUB_REF ?? '';
  const sha = context.sha ?? '';
  const repoUrl = info.repository ? `${info.serverUrl}/${info.repository}` : '';
  const clean = (o: Record<string, string>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== ''));
  return {
    event: context.payload ?? {},
    repo: clean({ owner: info.owner, name: info.name, full_name: info.repository, url: repoUrl }),
    run: clean({
      id: info.runId,
      number: info.runNumber,
      attempt: info.runAttempt,
      url: repoUrl && info.runId ? `${repoUrl}/actions/runs/${info.runId}` : '',
      workflow: info.workflow,
      job: info.job,
      step: info.step,
      event_name: info.eventName,
      actor: context.actor ?? '',
      ref,
      ref_name: env.GITHUB_REF_NAME || ref.replace(/^refs\/(heads|tags)\//, ''),
      sha,
      sha_short: sha.slice(0, 7),
    }),
    env: Object.fromEntries(envVars.filter((name) => env[name] !== undefined).map((name) => [name, env[name]])),
  };
}
