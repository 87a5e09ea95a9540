/**
 * Incremental sync on `push`, in a real git repository in a temp dir, run as the runner runs the bundle:
 * only rows changed since `github.event.before` are imported; a shallow clone (the previous commit
 * absent) falls back to a full sync and says how to fix it; removed rows are listed; workflow_dispatch
 * syncs the whole file.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { execFileSync } from 'node:child_process';
import { rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './helpers.ts';
import { runStep, useBundleSandbox } from './runner.ts';

const sandbox = useBundleSandbox({ job_rows_per_second: 100000 });

function git(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=test', '-c', 'user.email=test@example.invalid', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, encoding: 'utf8' }).trim();
}

const row = (i: number, name = `C${i}`) => `${name},c${i}@example.com,+49151${String(i).padStart(8, '0')}`;

/** A repository whose contacts file (25,000 rows) gets one commit, then a second with `edit` applied. */
function repository(edit: (rows: string[]) => string[]): { dir: string; before: string; after: string } {
  const dir = tempDir('incremental-');
  git(dir, 'init', '-q');
  const rows = Array.from({ length: 25000 }, (_, i) => row(i));
  writeFileSync(join(dir, 'contacts.csv'), `first_name,email,whatsapp\n${rows.join('\n')}\n`);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'contacts');
  const before = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(join(dir, 'contacts.csv'), `first_name,email,whatsapp\n${edit(rows).join('\n')}\n`);
  git(dir, 'commit', '-qam', 'edit');
  return { dir, before, after: git(dir, 'rev-parse', 'HEAD') };
}

const threeEdits = (rows: string[]) => rows.map((r, i) => ([10, 12000, 24999].includes(i) ? row(i, `Edited${i}`) : r));

function sync(dir: string, eventName: string, event: Record<string, unknown>) {
  return runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, mode: 'sync-contacts', file: 'contacts.csv', 'wait-timeout': '120' }, { workspaceDir: dir, eventName, event });
}

test('push: an edit of 3 rows in a 25,000-row file makes 1 import job of 3 contacts', async () => {
  const repo = repository(threeEdits);
  const r = await sync(repo.dir, 'push', { before: repo.before, after: repo.after });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Incremental sync: 3 of 25000 row(s) changed since');
  const ledger = ledgerRows(sandbox);
  expect(ledger.jobs.map((j) => j.total)).toEqual([3]);
  expect(ledger.contacts.map((c) => c.first_name).sort()).toEqual(['Edited10', 'Edited12000', 'Edited24999']);
  expect(r.outputs.imported).toBe('3');
  expect(JSON.parse(r.outputs.results).map((x: { line: number }) => x.line)).toEqual([12, 12002, 25001]);
}, 120000);

test('workflow_dispatch syncs the whole file (25 jobs of 1,000)', async () => {
  const repo = repository(threeEdits);
  const r = await sync(repo.dir, 'workflow_dispatch', {});
  expect(r.code).toBe(0);
  expect(ledgerRows(sandbox).jobs).toHaveLength(25);
  expect(r.outputs.imported).toBe('25000');
}, 120000);

test('a shallow clone (previous commit absent) falls back to a full sync with the one-line fix', async () => {
  const repo = repository(threeEdits);
  const shallow = tempDir('shallow-');
  execFileSync('git', ['clone', '-q', '--depth', '1', `file://${repo.dir}`, shallow]);
  const r = await sync(shallow, 'push', { before: repo.before, after: repo.after });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`Full sync: the previous commit ${repo.before.slice(0, 7)} is not in this clone (a shallow checkout). To sync only the changed rows, check out with \`fetch-depth: 2\``);
  expect(ledgerRows(sandbox).jobs).toHaveLength(25);
}, 120000);

test('rows removed from the file are listed in the summary (masked); nothing is deleted', async () => {
  const repo = repository((rows) => rows.filter((_, i) => i !== 5 && i !== 6));
  const r = await sync(repo.dir, 'push', { before: repo.before, after: repo.after });
  expect(r.code).toBe(0);
  expect(ledgerRows(sandbox).requests).toBeLessThanOrEqual(1);
  expect(r.summary).toContain('**2 row(s) removed from the file since the previous commit**');
  expect(r.summary).toContain('- line 7 of the previous version: `c***@e***.com`');
  expect(r.summary).not.toContain('c5@example.com');
}, 120000);

/** A small repository: `first` committed, then `second`, both written as the given bytes. */
function twoCommits(first: Buffer, second: Buffer): { dir: string; before: string; after: string } {
  const dir = tempDir('incremental-small-');
  git(dir, 'init', '-q');
  writeFileSync(join(dir, 'contacts.csv'), first);
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'contacts');
  const before = git(dir, 'rev-parse', 'HEAD');
  writeFileSync(join(dir, 'contacts.csv'), second);
  git(dir, 'commit', '-qam', 'edit');
  return { dir, before, after: git(dir, 'rev-parse', 'HEAD') };
}

const utf16 = (text: string) => Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
const csv = (rows: string[]) => `first_name,email,whatsapp\n${rows.join('\n')}\n`;
const tenRows = Array.from({ length: 10 }, (_, i) => row(i));

test('a UTF-16 file (with its BOM) is compared as UTF-16 in both versions: only the edited row is sent', async () => {
  const repo = twoCommits(utf16(csv(tenRows)), utf16(csv(tenRows.map((r, i) => (i === 4 ? row(i, 'Zoë') : r)))));
  const r = await sync(repo.dir, 'push', { before: repo.before, after: repo.after });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Incremental sync: 1 of 10 row(s) changed since');
  expect(ledgerRows(sandbox).contacts.map((c) => c.first_name)).toEqual(['Zoë']);
}, 60000);

test('a previous version that does not parse falls back to a full sync of the current file, saying why', async () => {
  const repo = twoCommits(Buffer.from('first_name,email,whatsapp\n"unclosed,c0@example.com,+4915100000000\n'), Buffer.from(csv(tenRows)));
  const r = await sync(repo.dir, 'push', { before: repo.before, after: repo.after });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`Full sync: the previous version of contacts.csv (${repo.before.slice(0, 7)}) could not be read`);
  expect(ledgerRows(sandbox).contacts).toHaveLength(10);
}, 60000);

test('a previous version that was a symlink (git mode 120000) is not followed: full sync, saying why', async () => {
  const dir = tempDir('incremental-link-');
  git(dir, 'init', '-q');
  symlinkSync('/proc/self/environ', join(dir, 'contacts.csv'));
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'link');
  const before = git(dir, 'rev-parse', 'HEAD');
  rmSync(join(dir, 'contacts.csv'));
  writeFileSync(join(dir, 'contacts.csv'), csv(tenRows));
  git(dir, 'add', '.');
  git(dir, 'commit', '-qm', 'file');
  expect(git(dir, 'ls-tree', before, '--', 'contacts.csv')).toMatch(/^120000 blob /);
  const r = await sync(dir, 'push', { before, after: git(dir, 'rev-parse', 'HEAD') });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain(`Full sync: contacts.csv was a symbolic link in ${before.slice(0, 7)}, which is not followed.`);
  expect(ledgerRows(sandbox).contacts).toHaveLength(10);
}, 60000);
