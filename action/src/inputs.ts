import { isAbsolute } from 'node:path';
import { ApiError, normalizeBaseUrl, splitRecipients, validateIdempotencyKey } from '../../src/index.ts';
import { validateProxy } from './proxy.ts';
import { RENAMED_MODES, warnDeprecated } from './renamed.ts';
import type { CoreLike } from './types.ts';

/** An invalid input: always fails the step, naming the input. */
export class InputError extends Error {
  readonly input: string;
  constructor(input: string, message: string) {
    super(`Input "${input}": ${message}`);
    this.name = 'InputError';
    this.input = input;
  }
}

export const MODES = ['send', 'batch', 'sync-contacts', 'import-status'] as const;
export type Mode = (typeof MODES)[number];
export const FORMATS = ['auto', 'csv', 'jsonl', 'json', 'yaml', 'text'] as const;

export interface Settings {
  mode: Mode;
  apiKey: string;
  baseUrl: string;
  /** The `proxy` input, checked; '' means the runner's proxy variables. */
  proxy: string;
  channel: string;
  /** Recipients as given: split by src's splitRecipients (lines, commas, semicolons). */
  to: string;
  toFile: string;
  subject: string;
  body: string;
  bodyFile: string;
  file: string;
  fileFormat: string;
  /** The import job ids to read (`import-job-ids`, or the deprecated `job-id`), as given. */
  importJobIds: string;
  wait: boolean;
  waitTimeoutMs: number;
  maxRateLimitWaitMs: number;
  idempotencyKey: string;
  failOnError: boolean;
  dryRun: boolean;
  /** The environment variables templates may read as `env.NAME` (the `env-vars` input). */
  envVars: string[];
  /** Directories outside the workspace and RUNNER_TEMP whose files may be read (absolute, as given). */
  readDirs: string[];
}

/** The API key: the input, else MESSAGING_API_KEY. Read (and masked by the caller) before anything else. */
export function readApiKey(core: CoreLike, env: NodeJS.ProcessEnv): string {
  return (core.getInput('api-key') || env.MESSAGING_API_KEY || '').trim();
}

/** YAML 1.2 core-schema booleans, as @actions/core's getBooleanInput, but naming the input. */
function booleanInput(core: CoreLike, name: string): boolean {
  const raw = core.getInput(name);
  if (['true', 'True', 'TRUE'].includes(raw)) return true;
  if (['false', 'False', 'FALSE'].includes(raw)) return false;
  throw new InputError(name, `must be true or false, got "${raw}".`);
}

/** Decimal seconds only: `Number()` would also take `0x10`, `1e3` or ` ` — refused by name instead. */
function secondsInput(core: CoreLike, name: string, max: number): number {
  const raw = core.getInput(name);
  const value = Number(raw);
  if (!/^\d+(\.\d+)?$/.test(raw) || value > max) {
    throw new InputError(name, `must be a number of seconds from 0 to ${max}, got "${raw}".`);
  }
  return Math.round(value * 1000);
}

/** `env-vars`: names only, never the action's own inputs (INPUT_*, which hold the API key) or the key variable. */
function envVarsInput(core: CoreLike): string[] {
  const names = splitRecipients(core.getInput('env-vars'));
  for (const name of names) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new InputError('env-vars', `"${name}" is not an environment variable name.`);
    if (/^INPUT_/i.test(name) || name === 'MESSAGING_API_KEY') throw new InputError('env-vars', `"${name}" may not be read by templates (it can hold the API key).`);
  }
  return names;
}

/** `read-dirs-outside-workspace`: absolute directories, one per line (a path may hold a comma). */
function readDirsInput(core: CoreLike): string[] {
  const dirs = core
    .getInput('read-dirs-outside-workspace')
    .split(/\r?\n/)
    .map((d) => d.trim())
    .filter(Boolean);
  for (const dir of dirs) if (!isAbsolute(dir)) throw new InputError('read-dirs-outside-workspace', `"${dir}" is not an absolute path: list directories outside the workspace by their absolute path, one per line.`);
  return dirs;
}

/** `mode`, with the deprecated `job` read as `import-status` (and a warning). */
function modeInput(core: CoreLike): string {
  const given = core.getInput('mode').trim() || 'send';
  const renamed = RENAMED_MODES[given];
  if (renamed) warnDeprecated(core, `mode: ${given}`, `mode: ${renamed}`);
  return renamed ?? given;
}

/** `import-job-ids`, else the deprecated `job-id` (with a warning); both set to different values is refused. */
function importJobIdsInput(core: CoreLike): string {
  const current = core.getInput('import-job-ids').trim();
  const old = core.getInput('job-id').trim();
  if (old && current && old !== current) throw new InputError('job-id', 'is the old name of import-job-ids, which is also set: keep only import-job-ids.');
  if (old && !current) warnDeprecated(core, 'Input "job-id"', 'input "import-job-ids"');
  return current || old;
}

/** Reads and checks every input; mode-specific requirements are checked where the mode runs. */
export function readInputs(core: CoreLike, env: NodeJS.ProcessEnv, apiKey: string): Settings {
  const mode = modeInput(core);
  if (!(MODES as readonly string[]).includes(mode)) throw new InputError('mode', `must be one of ${MODES.join(', ')}, got "${mode}".`);
  const dryRun = booleanInput(core, 'dry-run');

  const rawBase = core.getInput('base-url') || env.MESSAGING_BASE_URL || '';
  let baseUrl = '';
  if (rawBase) {
    try {
      baseUrl = normalizeBaseUrl(rawBase, apiKey);
    } catch (error) {
      throw new InputError('base-url', error instanceof ApiError ? error.message : String(error));
    }
  } else if (!dryRun) {
    throw new InputError('base-url', 'is empty: set it (or the MESSAGING_BASE_URL environment variable) to the service’s address ending in /v1.');
  }
  if (!apiKey && !dryRun) {
    throw new InputError('api-key', 'is empty: pass a secret (`api-key: ${{ secrets.MESSAGING_API_KEY }}`) or set the MESSAGING_API_KEY environment variable.');
  }

  const idempotencyKey = core.getInput('idempotency-key');
  if (idempotencyKey) {
    try {
      validateIdempotencyKey(idempotencyKey, 'idempotency-key');
    } catch (error) {
      throw new InputError('idempotency-key', (error as Error).message);
    }
  }
  const fileFormat = core.getInput('file-format').trim().toLowerCase() || 'auto';
  if (!(FORMATS as readonly string[]).includes(fileFormat)) throw new InputError('file-format', `must be one of ${FORMATS.join(', ')}, got "${fileFormat}".`);

  return {
    mode: mode as Mode,
    apiKey,
    baseUrl,
    proxy: validateProxy(core.getInput('proxy')),
    channel: core.getInput('channel').trim(),
    to: core.getInput('to'),
    toFile: core.getInput('to-file').trim(),
    subject: core.getInput('subject', { trimWhitespace: false }),
    body: core.getInput('body', { trimWhitespace: false }),
    bodyFile: core.getInput('body-file').trim(),
    file: core.getInput('file').trim(),
    fileFormat,
    importJobIds: importJobIdsInput(core),
    wait: booleanInput(core, 'wait'),
    waitTimeoutMs: secondsInput(core, 'wait-timeout', 6 * 3600),
    maxRateLimitWaitMs: secondsInput(core, 'max-rate-limit-wait', 6 * 3600),
    idempotencyKey,
    failOnError: booleanInput(core, 'fail-on-error'),
    dryRun,
    envVars: envVarsInput(core),
    readDirs: readDirsInput(core),
  };
}
