/** Test doubles for the action: a `core` that records everything, inputs defaulted from action.yml. */
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import type { AnnotationProperties, ContextLike, CoreLike, SummaryLike } from '../../action/src/types.ts';

export const ROOT = join(__dirname, '..', '..');
export const ACTION_YML = join(ROOT, 'action', 'action.yml');

interface ActionYml {
  inputs: Record<string, { default?: string; required?: boolean; description: string }>;
  outputs: Record<string, { description: string }>;
}

export function actionYml(): ActionYml {
  return parse(readFileSync(ACTION_YML, 'utf8')) as ActionYml;
}

/** The inputs the runner would pass: action.yml defaults, overridden by the step's `with:`. */
export function withDefaults(given: Record<string, string>): Record<string, string> {
  const inputs: Record<string, string> = {};
  for (const [name, spec] of Object.entries(actionYml().inputs)) inputs[name] = spec.default ?? '';
  for (const [name, value] of Object.entries(given)) {
    if (!(name in inputs)) throw new Error(`test uses an undeclared input "${name}"`);
    inputs[name] = value;
  }
  return inputs;
}

export interface Annotation {
  level: 'error' | 'warning' | 'notice';
  message: string;
  properties?: AnnotationProperties;
}

export interface FakeCore extends CoreLike {
  inputsRead: Set<string>;
  outputs: Record<string, string>;
  secrets: string[];
  logs: string[];
  annotations: Annotation[];
  failed?: string;
  summaryText: string;
  summaryWritten: boolean;
  /** Everything the action wrote anywhere, for leak checks. */
  everything(): string;
}

export function fakeCore(given: Record<string, string> = {}): FakeCore {
  const inputs = withDefaults(given);
  let pending = '';
  const summary: SummaryLike = {
    addRaw(text: string, addEOL?: boolean) {
      pending += text + (addEOL ? '\n' : '');
      return summary;
    },
    async write() {
      core.summaryText += pending;
      core.summaryWritten = true;
      pending = '';
      return summary;
    },
  };
  const core: FakeCore = {
    inputsRead: new Set(),
    outputs: {},
    secrets: [],
    logs: [],
    annotations: [],
    summaryText: '',
    summaryWritten: false,
    getInput(name, options) {
      core.inputsRead.add(name);
      const value = inputs[name] ?? '';
      return options?.trimWhitespace === false ? value : value.trim();
    },
    setOutput(name, value) {
      core.outputs[name] = String(value);
    },
    setSecret(secret) {
      core.secrets.push(secret);
    },
    setFailed(message) {
      core.failed = String(message instanceof Error ? message.message : message);
    },
    info(message) {
      core.logs.push(message);
    },
    debug(message) {
      core.logs.push(`::debug::${message}`);
    },
    warning(message, properties) {
      core.annotations.push({ level: 'warning', message: String(message), properties });
    },
    error(message, properties) {
      core.annotations.push({ level: 'error', message: String(message), properties });
    },
    notice(message, properties) {
      core.annotations.push({ level: 'notice', message: String(message), properties });
    },
    summary,
    everything() {
      return [...core.logs, ...core.annotations.map((a) => a.message), core.failed ?? '', ...Object.values(core.outputs), core.summaryText].join('\n');
    },
  };
  return core;
}

const tempDirs: string[] = [];

/** A temp dir removed after the test file (every suite that imports these helpers). */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of tempDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}
if (typeof afterAll === 'function') afterAll(removeTempDirs);

/** A temp workspace holding `files` (path → content, text or bytes) and, beside it, an event JSON. */
export function workspace(files: Record<string, string | Uint8Array>, event: unknown = {}): { dir: string; eventPath: string } {
  const root = tempDir('action-ws-');
  const dir = join(root, 'workspace');
  mkdirSync(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  const eventPath = join(root, 'event.json');
  writeFileSync(eventPath, JSON.stringify(event));
  return { dir, eventPath };
}

export function context(payload: Record<string, unknown> = {}, overrides: Partial<ContextLike> = {}): ContextLike {
  return {
    payload,
    eventName: 'release',
    sha: 'abcdef0123456789abcdef0123456789abcdef01',
    ref: 'refs/tags/v1.2.0',
    workflow: 'Release',
    action: 'notify',
    actor: 'octocat',
    job: 'announce',
    runId: 1234567,
    runNumber: 89,
    runAttempt: 1,
    serverUrl: 'https://github.com',
    ...overrides,
  };
}

export const RELEASE_EVENT = {
  action: 'published',
  release: { tag_name: 'v1.2.0', name: 'Spring release', html_url: 'https://github.com/acme/shop/releases/tag/v1.2.0', body: 'Faster checkout.' },
  repository: { full_name: 'acme/shop', name: 'shop', owner: { login: 'acme' } },
};
