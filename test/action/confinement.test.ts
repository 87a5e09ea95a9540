/**
 * The action reads only files whose real path (after every symlink) is inside the workspace or RUNNER_TEMP,
 * or inside a directory the workflow lists in `read-dirs-outside-workspace`. Anything else is refused
 * before any request, naming the input and where the path leads, never what the file holds. Run as the
 * runner runs the bundle, against a sandbox that counts every request.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { RELEASE_EVENT, tempDir, workspace } from './helpers.ts';
import { leaks, runStep, useBundleSandbox } from './runner.ts';
import type { StepResult } from './runner.ts';

const KEY = 'sk_test_demo_ok';
const TOKEN = 'ghp_thisIsTheRunnersTokenFile0123456789';
const sandbox = useBundleSandbox();

/** A workspace with `files`, then `links` (path in the workspace → target) made as symlinks. */
function checkout(files: Record<string, string>, links: Record<string, string> = {}): string {
  const { dir } = workspace(files);
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    symlinkSync(target, join(dir, path));
  }
  return dir;
}

/** A file outside the workspace (another temp dir), e.g. a runner's credentials file. */
function outside(name: string, content: string): string {
  const path = join(tempDir('outside-'), name);
  writeFileSync(path, content);
  return path;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

async function step(inputs: Record<string, string>, dir: string, env: Record<string, string> = {}): Promise<StepResult> {
  const r = await runStep({ 'api-key': KEY, 'base-url': sandbox.url, ...inputs }, { event: RELEASE_EVENT, workspaceDir: dir, env });
  expect(leaks(r, KEY)).toEqual([]);
  return r;
}

/** The refusal as the runner shows it: one error naming the input and where the path leads (a pattern). */
function expectRefused(r: StepResult, input: string, given: string, target: string): void {
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(new RegExp(`^${escape(`::error::Input "${input}": "${given}" leads to `)}${target}, outside the workspace`, 'm'));
  expect(ledgerRows(sandbox).requests).toBe(0);
}

test('to-file symlinked to /proc/self/environ is refused before any request; the environment is never read', async () => {
  const dir = checkout({}, { 'team.txt': '/proc/self/environ' });
  const r = await step({ mode: 'send', channel: 'email', 'to-file': 'team.txt', body: 'hi' }, dir);
  // realpath reads /proc/self as the process it is: /proc/<pid>/environ.
  expectRefused(r, 'to-file', 'team.txt', '/proc/\\d+/environ');
  for (const shown of [r.stdout, r.summary, readFileSync(r.outputs['results-file'], 'utf8')]) expect(shown).not.toContain('GITHUB_WORKSPACE=');
});

test('a contacts file symlinked outside the workspace is not imported', async () => {
  const target = outside('contacts.csv', 'first_name,email\nEve,eve@example.com\n');
  const dir = checkout({}, { 'contacts.csv': target });
  const r = await step({ mode: 'sync-contacts', file: 'contacts.csv' }, dir);
  expectRefused(r, 'file', 'contacts.csv', escape(target));
  expect(ledgerRows(sandbox).contacts).toEqual([]);
});

test('a body-file symlinked to a token file: nothing sent, the token shown nowhere', async () => {
  const target = outside('token', TOKEN);
  const dir = checkout({}, { 'docs/body.md': target });
  const r = await step({ mode: 'send', channel: 'email', to: 'ann@example.com', 'body-file': 'docs/body.md' }, dir);
  expectRefused(r, 'body-file', 'docs/body.md', escape(target));
  expect(leaks(r, TOKEN)).toEqual([]);
  expect(ledgerRows(sandbox).messages).toEqual([]);
});

test('a directory symlinked outside, ../ and absolute paths outside are refused; /proc even when listed', async () => {
  const target = outside('m.csv', 'channel,to,body\nemail,eve@example.com,hi\n');
  const dir = checkout({}, { data: join(target, '..') });
  expectRefused(await step({ mode: 'batch', file: 'data/m.csv' }, dir), 'file', 'data/m.csv', escape(target));
  expectRefused(await step({ mode: 'batch', file: relative(dir, target) }, dir), 'file', relative(dir, target), escape(target));
  expectRefused(await step({ mode: 'batch', file: target }, dir), 'file', target, escape(target));
  const proc = await step({ mode: 'send', channel: 'email', to: 'ann@example.com', 'body-file': '/proc/self/environ', 'read-dirs-outside-workspace': '/proc' }, dir);
  expect(proc.code).toBe(1);
  expect(proc.stdout).toMatch(/^::error::Input "body-file": "\/proc\/self\/environ" leads to \/proc\/\d+\/environ, which the action never reads \(\/proc, \/sys and \/dev are not files of data\)/m);
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('inside the workspace (also through a symlink to a workspace file), RUNNER_TEMP, and listed directories are read', async () => {
  const csv = (body: string) => `channel,to,body\nemail,ann@example.com,${body}\n`;
  const dir = checkout({ 'data/m.csv': csv('through a link') }, { 'm.csv': 'data/m.csv' });
  expect((await step({ mode: 'batch', file: 'm.csv' }, dir)).code).toBe(0);
  writeFileSync(join(dir, 'data', 'n.csv'), csv('absolute inside'));
  expect((await step({ mode: 'batch', file: join(dir, 'data', 'n.csv') }, dir)).code).toBe(0);

  const runnerTemp = tempDir('runner-temp-');
  writeFileSync(join(runnerTemp, 'generated.csv'), csv('from RUNNER_TEMP'));
  expect((await step({ mode: 'batch', file: join(runnerTemp, 'generated.csv') }, dir, { RUNNER_TEMP: runnerTemp })).code).toBe(0);

  const shared = outside('m.csv', csv('from a listed directory'));
  expect((await step({ mode: 'batch', file: shared }, dir)).code).toBe(1);
  expect((await step({ mode: 'batch', file: shared, 'read-dirs-outside-workspace': join(shared, '..') }, dir)).code).toBe(0);
  expect(ledgerRows(sandbox).messages.map((m) => m.body)).toEqual(['through a link', 'absolute inside', 'from RUNNER_TEMP', 'from a listed directory']);
});

test('a listed directory must be an absolute path that exists', async () => {
  const dir = checkout({ 'm.csv': 'channel,to,body\nemail,ann@example.com,hi\n' });
  const r = await step({ mode: 'batch', file: 'm.csv', 'read-dirs-outside-workspace': 'shared' }, dir);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('::error::Input "read-dirs-outside-workspace": "shared" is not an absolute path');
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test('a FIFO in the checkout is refused as not a regular file, without blocking the step', async () => {
  const dir = checkout({});
  execFileSync('mkfifo', [join(dir, 'pipe.csv')]);
  const r = await step({ mode: 'sync-contacts', file: 'pipe.csv' }, dir);
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('::error::Input "file": "pipe.csv" is not a regular file.');
  expect(ledgerRows(sandbox).requests).toBe(0);
});
