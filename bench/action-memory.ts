/**
 * `npm run bench:action-memory`: the GitHub Action's peak RSS on generated contacts and messages files,
 * run as the runner runs it (bench/action-process.ts, GNU time -v). Files are seeded (bench/generated-files.ts),
 * written under a temp folder in /tmp and deleted at the end. Rows (issue 24, "Acceptance"):
 *   dry     dry runs at 10, 50 and 200 MB, sync-contacts and batch, CSV and JSON Lines (when the action reads it)
 *   heap    a 310 MB dry run under NODE_OPTIONS=--max-old-space-size=1792 (a 7 GB runner's heap): completes or not
 *   real    real runs against the sandbox (a child process; rates high enough that pacing never waits, every
 *           message kept in the ledger) at 10 and 50 MB, the last row one the service refuses: every other row
 *           delivered once (0 lost, 0 duplicates), the refused one annotated at its line
 *   incremental  a 50 MB contacts CSV with 3 rows edited since the previous commit (push event with `before`)
 *   limit   JSON and YAML contacts files over the action's stated size limit: fail before any call
 * Options: --label before|after (default after; `before` writes bench/results-action-memory-before.json),
 * --only dry,heap,real,incremental,limit   --sizes 10,50,200   --limit-mb <n> (size of the over-limit files, default 20: the action refuses JSON and YAML past 16 MiB)
 * --merge (keep the saved file's other parts: rerun one part alone)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { request } from 'undici';
import { ROOT, runAction } from './action-process.ts';
import type { ActionRun } from './action-process.ts';
import { resultTables } from './action-memory-results.ts';
import type { ActionMemoryResults, Mode } from './action-memory-results.ts';
import { generateFile } from './generated-files.ts';
import type { FileFormat, FileKind, GenerateOptions } from './generated-files.ts';
import { countLedger } from './ledger-tally.ts';
import { startSandboxProcess } from './sandbox-process.ts';
import type { SandboxProcess } from './sandbox-process.ts';

const { values } = parseArgs({
  options: { label: { type: 'string', default: 'after' }, only: { type: 'string', default: 'dry,heap,real,incremental,limit' }, sizes: { type: 'string', default: '10,50,200' }, 'limit-mb': { type: 'string', default: '20' }, merge: { type: 'boolean' } },
});
const parts = new Set(values.only.split(','));
const SIZES = values.sizes.split(',').map(Number);
const MB = 1e6;
const KEY = 'sk_test_demo_ok';
const SEED = 24;
const LIMIT_TIMEOUT = 120;
const MODES: [Mode, FileKind][] = [
  ['sync-contacts', 'contacts'],
  ['batch', 'messages'],
];
const EXT: Record<FileFormat, string> = { csv: 'csv', jsonl: 'jsonl', json: 'json', yaml: 'yaml' };

const work = mkdtempSync(join(tmpdir(), 'action-memory-'));
const cleanUp = () => rmSync(work, { recursive: true, force: true });
process.on('SIGINT', () => {
  cleanUp();
  process.exit(130);
});

const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`;

/** A fresh workspace holding one generated file; returns its folder, file name and what was written. */
function workspaceWith(name: string, options: GenerateOptions) {
  const dir = join(work, `ws-${name}`);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  const file = `${options.kind}.${EXT[options.format]}`;
  return { dir, file, ...generateFile(join(dir, file), options) };
}

function log(what: string, run: ActionRun, fileBytes: number): void {
  console.log(`  ${what.padEnd(44)} exit ${String(run.code).padStart(3)}  peak RSS ${mb(run.peakRss).padStart(10)}  ${(run.peakRss / fileBytes).toFixed(2)}× file  ${run.seconds.toFixed(1)} s${run.signal ? `  ${run.signal}` : ''}`);
}

/** Whether the action reads `format` (JSON Lines exists only once the action streams): a one-row dry run. */
async function reads(format: FileFormat): Promise<boolean> {
  const ws = workspaceWith(`probe-${format}`, { kind: 'contacts', format, targetBytes: 1, seed: SEED });
  const run = await runAction({ inputs: { mode: 'sync-contacts', file: ws.file, 'dry-run': 'true' }, workspace: ws.dir });
  rmSync(ws.dir, { recursive: true, force: true });
  return run.code === 0;
}

async function control(sb: SandboxProcess, path: string): Promise<void> {
  const res = await request(`${sb.origin}/__sandbox/${path}`, { method: 'POST', headers: { 'x-sandbox-token': sb.controlToken, 'content-type': 'application/json' }, body: '{}' });
  await res.body.text();
  if (res.statusCode !== 200) throw new Error(`sandbox ${path}: HTTP ${res.statusCode}`);
}

async function main(): Promise<void> {
  const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  const results: ActionMemoryResults = { label: values.label, commit, measuredAt: new Date().toISOString().slice(0, 16), node: process.versions.node, notes: [], dry: [], heapCap: [], real: [], incremental: null, limit: [] };
  const formats: FileFormat[] = ['csv'];
  if (await reads('jsonl')) formats.push('jsonl');
  else results.notes.push('JSON Lines: the action does not read it (no row).');
  console.log(`work folder ${work}; formats ${formats.join(', ')}`);

  if (parts.has('dry')) {
    console.log('\nDry runs:');
    for (const [mode, kind] of MODES)
      for (const format of formats)
        for (const size of SIZES) {
          const ws = workspaceWith('dry', { kind, format, targetBytes: size * MB, seed: SEED });
          const run = await runAction({ inputs: { mode, file: ws.file, 'dry-run': 'true' }, workspace: ws.dir });
          log(`${mode} ${format} ${size} MB (${ws.rows.toLocaleString('en-US')} rows)`, run, ws.bytes);
          results.dry.push({ mode, format, targetMB: size, fileBytes: ws.bytes, rows: ws.rows, code: run.code, peakRss: run.peakRss, seconds: run.seconds });
        }
  }

  if (parts.has('heap')) {
    console.log('\n310 MB dry runs, NODE_OPTIONS=--max-old-space-size=1792:');
    for (const [mode, kind] of MODES) {
      const format = formats.at(-1)!;
      for (const f of new Set<FileFormat>(['csv', format])) {
        const ws = workspaceWith('heap', { kind, format: f, targetBytes: 310 * MB, seed: SEED });
        const run = await runAction({ inputs: { mode, file: ws.file, 'dry-run': 'true' }, workspace: ws.dir, env: { NODE_OPTIONS: '--max-old-space-size=1792' } });
        log(`${mode} ${f} 310 MB`, run, ws.bytes);
        const crash = run.heapOutOfMemory ? 'JavaScript heap out of memory' : undefined;
        results.heapCap.push({ mode, format: f, fileBytes: ws.bytes, code: run.code, signal: run.signal, completed: run.code === 0, peakRss: run.peakRss, seconds: run.seconds, ...(crash ? { crash } : {}) });
      }
    }
  }

  if (parts.has('real') || parts.has('incremental') || parts.has('limit')) {
    // Every message is kept in the ledger (retain_messages far above the default 50,000), so each row is
    // found by its recipient; jobs run as fast as they can, and the rate window never fills.
    const sb = await startSandboxProcess({ job_rows_per_second: 1e9, retain_messages: 1e9, accounts: [{ id: 'acc_demo', credits: 1e12, rate_limit: 1e9 }] });
    results.notes.push('Real runs: the sandbox keeps every message (retain_messages 1e9 instead of the default 50,000), so the ledger read in pages holds each row.');
    try {
      const real = (inputs: Record<string, string>, dir: string, extra: Partial<Parameters<typeof runAction>[0]> = {}) =>
        runAction({ inputs: { 'api-key': KEY, 'base-url': sb.url, 'wait-timeout': '900', ...inputs }, workspace: dir, ...extra });
      if (parts.has('real')) {
        console.log('\nReal runs against the sandbox (the last row is refused by the service):');
        for (const [mode, kind] of MODES)
          for (const format of formats)
            for (const size of SIZES.filter((s) => s <= 50)) {
              await control(sb, 'reset');
              // The last row: an address the service refuses (contacts: email; messages: to).
              const finalRow = kind === 'contacts' ? (r: Record<string, string>) => ({ ...r, email: 'not-an-address', whatsapp: '' }) : (r: Record<string, string>) => ({ ...r, channel: 'email', to: 'not-an-address', subject: 'x' });
              const ws = workspaceWith('real', { kind, format, targetBytes: size * MB, seed: SEED, finalRow });
              const run = await real({ mode, file: ws.file }, ws.dir);
              log(`${mode} ${format} ${size} MB (${ws.rows.toLocaleString('en-US')} rows)`, run, ws.bytes);
              const count = await countLedger(sb.origin, kind, ws.rows, new Set([ws.rows - 1]));
              const annotated = run.errors.find((e) => e.file === ws.file && /refused|not imported|not sent/.test(e.message))?.line ?? null;
              console.log(`    ledger: ${count.delivered.toLocaleString('en-US')} delivered once, ${count.lost} lost, ${count.duplicates} duplicates, ${count.strays} strays; ${count.requests} API calls; refused row at line ${ws.lastLine} → annotated at ${annotated}`);
              results.real.push({ mode, format, targetMB: size, fileBytes: ws.bytes, rows: ws.rows, code: run.code, peakRss: run.peakRss, seconds: run.seconds, ...count, refusedLine: ws.lastLine, annotatedLine: annotated });
            }
      }

      if (parts.has('incremental')) {
        await control(sb, 'reset');
        const edited = new Set([7, 150_000, 600_000]);
        const dir = join(work, 'ws-incremental');
        rmSync(dir, { recursive: true, force: true });
        mkdirSync(dir);
        const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.invalid', ...args], { cwd: dir, encoding: 'utf8' }).trim();
        git('init', '-q');
        // An edit keeps each row's length (the city written backwards), so both versions end at the same row.
        const options: GenerateOptions = { kind: 'contacts', format: 'csv', targetBytes: 50 * MB, seed: SEED };
        generateFile(join(dir, 'contacts.csv'), options);
        git('add', '.');
        git('commit', '-qm', 'contacts');
        const before = git('rev-parse', 'HEAD');
        const file = generateFile(join(dir, 'contacts.csv'), { ...options, edit: (i, r) => (edited.has(i) ? { ...r, city: [...r.city!].reverse().join('') } : r) });
        git('commit', '-qam', 'edit 3 rows');
        const run = await real({ mode: 'sync-contacts', file: 'contacts.csv' }, dir, { eventName: 'push', event: { before, after: git('rev-parse', 'HEAD') } });
        let rowsSent = 0;
        const count = await countLedger(sb.origin, 'contacts', file.rows, new Set());
        rowsSent = count.rowsReceived;
        console.log('\nIncremental sync:');
        log(`50 MB contacts CSV, ${edited.size} rows edited → ${rowsSent} sent`, run, file.bytes);
        results.incremental = { fileBytes: file.bytes, rows: file.rows, edited: edited.size, code: run.code, peakRss: run.peakRss, seconds: run.seconds, rowsSent, requests: count.requests };
      }

      if (parts.has('limit')) {
        console.log(`\nJSON and YAML contacts files of ${values['limit-mb']} MB (real runs):`);
        for (const format of ['json', 'yaml'] as const) {
          await control(sb, 'reset');
          const ws = workspaceWith('limit', { kind: 'contacts', format, targetBytes: Number(values['limit-mb']) * MB, seed: SEED });
          // Under a 7 GB runner's heap, and stopped after LIMIT_TIMEOUT s: without a limit the file is read (or not) in full.
          const run = await real({ mode: 'sync-contacts', file: ws.file }, ws.dir, { env: { NODE_OPTIONS: '--max-old-space-size=1792' }, timeoutSeconds: LIMIT_TIMEOUT });
          const count = await countLedger(sb.origin, 'contacts', ws.rows, new Set());
          log(`${format} ${mb(ws.bytes)}: ${count.requests} API calls`, run, ws.bytes);
          const crash = run.heapOutOfMemory ? 'crashed: JavaScript heap out of memory' : '';
          const message = run.timedOut ? `still running after ${LIMIT_TIMEOUT} s: stopped` : (run.errors.find((e) => /limit/.test(e.message))?.message ?? run.errors[0]?.message ?? crash);
          if (message) console.log(`    ${message.slice(0, 300)}`);
          results.limit.push({ format, fileBytes: ws.bytes, code: run.code, peakRss: run.peakRss, seconds: run.seconds, requests: count.requests, message: message.slice(0, 300) });
        }
      }
    } finally {
      sb.child.kill('SIGTERM');
    }
  }

  const out = join(ROOT, 'bench', values.label === 'before' ? 'results-action-memory-before.json' : 'results-action-memory.json');
  if (values.merge && existsSync(out)) {
    const saved = JSON.parse(readFileSync(out, 'utf8')) as ActionMemoryResults;
    const kept = { dry: 'dry', heap: 'heapCap', real: 'real', incremental: 'incremental', limit: 'limit' } as const;
    for (const [part, field] of Object.entries(kept)) if (!parts.has(part)) (results as unknown as Record<string, unknown>)[field] = saved[field];
    results.notes = [...new Set([...saved.notes, ...results.notes])];
  }
  writeFileSync(out, `${JSON.stringify(results, null, 1)}\n`);
  console.log(`\n${resultTables(results)}\n\nsaved ${out}`);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
