/**
 * Runs the built action (action/dist/index.js) exactly as the runner does: Node 24 as a child process,
 * inputs as INPUT_<NAME> (upper-cased, hyphens kept) including action.yml's defaults, GITHUB_* env, temp
 * GITHUB_OUTPUT and GITHUB_STEP_SUMMARY files, a workspace with data files and an event JSON.
 */
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox, SandboxConfigInput } from '../../sandbox/server.ts';
import { useSandbox } from '../sandbox/helpers.ts';
import { ROOT, tempDir, withDefaults, workspace } from './helpers.ts';

export const DIST = join(ROOT, 'action', 'dist', 'index.js');

/** The sandbox a file of bundle tests runs against, emptied before each test; the bundle must be built. */
export function useBundleSandbox(config: SandboxConfigInput = { job_rows_per_second: 20_000 }): Sandbox {
  beforeAll(() => {
    if (!existsSync(DIST)) throw new Error('action/dist/index.js is missing: run `npm run build:action`');
  });
  return useSandbox(config);
}

export interface StepResult {
  code: number;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
  workspace: string;
  ms: number;
  /** RUNNER_TEMP of this step (results-file lives there). */
  runnerTemp: string;
}

/** Parses the GITHUB_OUTPUT file (`name<<delimiter` … `delimiter` blocks, or `name=value` lines). */
export function parseOutputFile(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const heredoc = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (heredoc) {
      const value: string[] = [];
      for (i++; i < lines.length && lines[i] !== heredoc[2]; i++) value.push(lines[i]);
      outputs[heredoc[1]] = value.join('\n');
    } else if (lines[i].includes('=')) {
      const at = lines[i].indexOf('=');
      outputs[lines[i].slice(0, at)] = lines[i].slice(at + 1);
    }
  }
  return outputs;
}

export interface StepOptions {
  files?: Record<string, string | Uint8Array>;
  /** Reuse a workspace (and its files). */
  workspaceDir?: string;
  event?: unknown;
  eventName?: string;
  env?: Record<string, string>;
  runId?: string;
  runAttempt?: string;
  script?: string;
}

export function runStep(inputs: Record<string, string>, options: StepOptions = {}): Promise<StepResult> {
  const temp = tempDir('runner-');
  const ws = options.workspaceDir ? { dir: options.workspaceDir, eventPath: join(temp, 'event.json') } : workspace(options.files ?? {});
  writeFileSync(ws.eventPath, JSON.stringify(options.event ?? {}));
  const outputFile = join(temp, 'output');
  const summaryFile = join(temp, 'summary');
  writeFileSync(outputFile, '');
  writeFileSync(summaryFile, '');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? temp,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: summaryFile,
    GITHUB_WORKSPACE: ws.dir,
    GITHUB_EVENT_PATH: ws.eventPath,
    GITHUB_EVENT_NAME: options.eventName ?? 'release',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_REPOSITORY_OWNER: 'acme',
    GITHUB_RUN_ID: options.runId ?? '4242',
    GITHUB_RUN_NUMBER: '17',
    GITHUB_RUN_ATTEMPT: options.runAttempt ?? '1',
    GITHUB_JOB: 'notify',
    GITHUB_ACTION: 'notify',
    GITHUB_WORKFLOW: 'Release',
    GITHUB_ACTOR: 'octocat',
    GITHUB_SHA: '0123456789abcdef0123456789abcdef01234567',
    GITHUB_REF: 'refs/tags/v1.2.0',
    GITHUB_REF_NAME: 'v1.2.0',
    GITHUB_SERVER_URL: 'https://github.com',
    GITHUB_API_URL: 'https://api.github.com',
    RUNNER_TEMP: temp,
    RUNNER_OS: 'Linux',
    ...options.env,
  };
  for (const [name, value] of Object.entries(withDefaults(inputs))) env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  const started = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [options.script ?? DIST], { env, cwd: ws.dir, timeout: 120_000, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({
        code,
        stdout,
        stderr,
        outputs: parseOutputFile(readFileSync(outputFile, 'utf8')),
        summary: readFileSync(summaryFile, 'utf8'),
        workspace: ws.dir,
        ms: Date.now() - started,
        runnerTemp: temp,
      });
    });
  });
}

/** stdout without the `::add-mask::` command lines (where the runner learns what to mask). */
export function stdoutWithoutMaskCommands(stdout: string): string {
  return stdout
    .split('\n')
    .filter((l) => !l.startsWith('::add-mask::'))
    .join('\n');
}

/** The forms a key comes back in: as given, inside a JSON string, URL-encoded, base64. */
export function keyForms(key: string): string[] {
  return [...new Set([key, JSON.stringify(key).slice(1, -1), encodeURIComponent(key), Buffer.from(key).toString('base64')])];
}

/** Markdown as read: backslash escapes and the HTML entities the summary writes, undone. */
function asRead(markdown: string): string {
  const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
  return markdown.replace(/\\([!-/:-@[-`{-~])/g, '$1').replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => entities[e]);
}

/**
 * The key must appear nowhere the user can see: outputs, the summary (as written and as read), the
 * results file, stdout (but ::add-mask::), stderr.
 */
export function leaks(result: StepResult, secret: string): string[] {
  const where: string[] = [];
  if (stdoutWithoutMaskCommands(result.stdout).includes(secret)) where.push('stdout');
  if (result.stderr.includes(secret)) where.push('stderr');
  if (Object.values(result.outputs).some((v) => v.includes(secret))) where.push('outputs');
  if (result.summary.includes(secret) || asRead(result.summary).includes(secret)) where.push('summary');
  const resultsFile = result.outputs['results-file'];
  if (resultsFile && existsSync(resultsFile) && readFileSync(resultsFile, 'utf8').includes(secret)) where.push('results-file');
  return where;
}
