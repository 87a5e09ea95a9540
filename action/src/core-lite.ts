/**
 * The slice of @actions/core the action uses, built from @actions/core 3's own protocol modules
 * (workflow commands, file commands, the job summary) — without its entry module, which eagerly imports
 * the OIDC client, @actions/http-client, tunnel and a second undici (6). Measured by
 * bench/action-startup.ts: that entry module costs ~0.4 MB of bundle and most of the start-up time,
 * for a feature (getIDToken) the action does not use.
 *
 * The package's "exports" map only exposes its entry, so the modules are imported by path; they are
 * bundled by ncc, and the lockfile pins @actions/core. The wrappers below are those of
 * @actions/core/lib/core.js, line for line in behaviour.
 */
import { EOL } from 'node:os';
import { issue, issueCommand } from '../../node_modules/@actions/core/lib/command.js';
import { issueFileCommand, prepareKeyValueMessage } from '../../node_modules/@actions/core/lib/file-command.js';
import { summary } from '../../node_modules/@actions/core/lib/summary.js';
import { toCommandProperties, toCommandValue } from '../../node_modules/@actions/core/lib/utils.js';
import type { AnnotationProperties, CoreLike } from './types.ts';

function getInput(name: string, options?: { required?: boolean; trimWhitespace?: boolean }): string {
  const val = process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] || '';
  if (options?.required && !val) throw new Error(`Input required and not supplied: ${name}`);
  return options?.trimWhitespace === false ? val : val.trim();
}

function setOutput(name: string, value: unknown): void {
  if (process.env.GITHUB_OUTPUT) return issueFileCommand('OUTPUT', prepareKeyValueMessage(name, value));
  process.stdout.write(EOL);
  issueCommand('set-output', { name }, toCommandValue(value));
}

function annotation(kind: 'error' | 'warning' | 'notice') {
  return (message: string | Error, properties: AnnotationProperties = {}): void =>
    issueCommand(kind, toCommandProperties(properties), message instanceof Error ? message.toString() : message);
}

const error = annotation('error');

export const coreLite: CoreLike = {
  getInput,
  setOutput,
  setSecret: (secret) => issueCommand('add-mask', {}, secret),
  setFailed: (message) => {
    process.exitCode = 1;
    error(message);
  },
  info: (message) => {
    process.stdout.write(message + EOL);
  },
  debug: (message) => issueCommand('debug', {}, message),
  warning: annotation('warning'),
  error,
  notice: annotation('notice'),
  summary,
};

/** For completeness with core.js (group lines); unused by the action today. */
export const startGroup = (name: string): void => issue('group', name);
export const endGroup = (): void => issue('endgroup');
