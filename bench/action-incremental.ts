/**
 * Incremental against full sync of a 25,000-row contacts file with 3 rows edited, run as the runner runs
 * the bundle (node action/dist/index.js) against the sandbox, in a real git repository:
 *
 *   node bench/action-incremental.ts
 *
 * Prints the API calls and the contact rows sent for a `push` (incremental) and a `workflow_dispatch`
 * (full sync), and their ratio.
 */
import { ledgerRows } from '../test/support/ledger-rows.ts';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { start } from '../sandbox/server.ts';
import type { Sandbox } from '../sandbox/server.ts';

const ROOT = join(dirname(process.argv[1]), '..');
const DIST = join(ROOT, 'action', 'dist', 'index.js');
const temp = mkdtempSync(join(tmpdir(), 'action-incremental-'));
const eventPath = join(mkdtempSync(join(tmpdir(), 'action-incremental-event-')), 'event.json');
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: temp, encoding: 'utf8' }).trim();
const row = (i: number, name = `C${i}`) => `${name},c${i}@example.com`;

const rows = Array.from({ length: 25000 }, (_, i) => row(i));
git('init', '-q');
writeFileSync(join(temp, 'contacts.csv'), `first_name,email\n${rows.join('\n')}\n`);
git('add', '.');
git('commit', '-qm', 'contacts');
const before = git('rev-parse', 'HEAD');
writeFileSync(join(temp, 'contacts.csv'), `first_name,email\n${rows.map((r, i) => ([10, 12000, 24999].includes(i) ? row(i, 'Edited') : r)).join('\n')}\n`);
git('commit', '-qam', 'edit 3 rows');

const inputs = parse(readFileSync(join(ROOT, 'action', 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };

async function sync(sandbox: Sandbox, eventName: string, event: unknown): Promise<{ calls: number; rows: number; jobs: number }> {
  sandbox.control.reset();
  writeFileSync(eventPath, JSON.stringify(event));
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', GITHUB_WORKSPACE: temp, GITHUB_EVENT_PATH: eventPath, GITHUB_EVENT_NAME: eventName, GITHUB_REPOSITORY: 'acme/shop', GITHUB_RUN_ID: String(Date.now()), GITHUB_JOB: 'sync', GITHUB_ACTION: 'sync' };
  const given: Record<string, string> = { 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, mode: 'sync-contacts', file: 'contacts.csv', 'wait-timeout': '300' };
  for (const [name, spec] of Object.entries(inputs.inputs)) env[`INPUT_${name.toUpperCase()}`] = given[name] ?? spec.default ?? '';
  await new Promise<void>((resolve, reject) => execFile(process.execPath, [DIST], { env, maxBuffer: 64 << 20 }, (error) => (error ? reject(error) : resolve())));
  const ledger = ledgerRows(sandbox);
  return { calls: ledger.requests, rows: ledger.jobs.reduce((n, j) => n + j.total, 0), jobs: ledger.jobs.length };
}

async function main(): Promise<void> {
  const sandbox = await start({ port: 0, config: { job_rows_per_second: 100000 } });
  try {
    const incremental = await sync(sandbox, 'push', { before, after: git('rev-parse', 'HEAD') });
    const full = await sync(sandbox, 'workflow_dispatch', {});
    console.log('25,000-row contacts file, 3 rows edited:');
    for (const [label, m] of [['push (incremental)', incremental], ['workflow_dispatch (full)', full]] as const) {
      console.log(`  ${label.padEnd(26)} ${String(m.calls).padStart(4)} API calls  ${String(m.rows).padStart(6)} contact rows sent  ${m.jobs} import job(s)`);
    }
    console.log(`  incremental / full: calls ${(incremental.calls / full.calls).toFixed(3)}, rows ${(incremental.rows / full.rows).toFixed(5)}`);
  } finally {
    await sandbox.close();
    rmSync(temp, { recursive: true, force: true });
    rmSync(dirname(eventPath), { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
