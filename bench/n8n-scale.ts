/**
 * `npm run bench:n8n-scale`: what a node costs per item in a real n8n 2.41.1 at 1,000, 10,000 and
 * 100,000 items. Manual Trigger → Code (N items `{ to, body }`) → the measured node: NoOp (the floor),
 * Set adding one constant field, Set evaluating `{{ $json.to }}` and `{{ $json.body }}`, Send Batch with
 * those two expressions, and Send Batch mapping the fields automatically. Each run is a fresh
 * `n8n start` (n8n-scale-run.ts) against an in-process sandbox with no rate wait (ceiling 10^9 per
 * window) that keeps every message, so its ledger, read in pages, shows each one delivered once in
 * ⌈N/500⌉ calls. Prints the medians and the ratios, writes bench/results-n8n-scale.json and regenerates
 * docs/benchmarks.md.
 * Flags: --items 1000,10000,100000  --runs 3  --largest-runs 3 (runs at the largest size)
 *        --append (add this invocation's runs to the file's runs of the same node and size; the median
 *        is then over all of them)
 *        --cpu-prof DIR (n8n writes a V8 CPU profile of each run there; profiled runs are not saved)
 *        --variants noOp,setConstant,…  (only these; the other rows of the results file are kept, so a
 *        ratio may then compare runs of two sessions: on a shared machine, measure every variant of a
 *        size in one invocation before citing its ratios)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { demoConfig } from '../sandbox/demo-config.ts';
import { start } from '../sandbox/server.ts';
import { buildAndPackMessagingPackage, createN8nHome, importCredentials, killAll, MESSAGING_PACKAGE, repoRoot, type N8nHome } from '../test/e2e/n8n/n8n-harness.ts';
import { deliveredExactly, expectedCalls, medianRun, VARIANTS, type Variant, type VariantFigures } from './n8n-scale-figures.ts';
import { N8N_SCALE_RESULTS, n8nScaleTableLines, ratioLines, type N8nScaleResults } from './n8n-scale-report.ts';
import { measureRun, WARM_UP_ITEMS } from './n8n-scale-run.ts';
import { CREDENTIAL } from './n8n-scale-workflows.ts';
import { readN8nScaleResults, readResults, writeReport } from './report.ts';
import { machine } from './results.ts';

const KEY = 'sk_test_demo_ok';
const OWNER = { email: 'bench@example.com', password: 'ScaleBench-pass1' };

function options() {
  const { values } = parseArgs({
    options: {
      items: { type: 'string', default: '1000,10000,100000' },
      runs: { type: 'string', default: '3' },
      'largest-runs': { type: 'string' },
      variants: { type: 'string', default: VARIANTS.join(',') },
      append: { type: 'boolean', default: false },
      'cpu-prof': { type: 'string' },
    },
  });
  const sizes = values.items.split(',').map(Number);
  const variants = values.variants.split(',') as Variant[];
  for (const v of variants) if (!VARIANTS.includes(v)) throw new Error(`unknown variant ${v}; known: ${VARIANTS.join(', ')}`);
  const runs = Number(values.runs);
  return { sizes, variants, runs, largestRuns: Number(values['largest-runs'] ?? runs), append: values.append, cpuProfDir: values['cpu-prof'] };
}

const keyOf = (f: VariantFigures) => `${f.variant}@${f.items}`;

function earlierRows(root: string): VariantFigures[] {
  const file = join(root, N8N_SCALE_RESULTS);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as N8nScaleResults).figures : [];
}

/**
 * Writes the results file and regenerates docs/benchmarks.md. This invocation's rows replace the earlier
 * ones of the same node and size, or with `append` add their runs to them.
 */
function save(root: string, earlier: VariantFigures[], current: VariantFigures[], append: boolean, highWaterMarkReset: boolean): void {
  const before = new Map(earlier.map((f) => [keyOf(f), f]));
  const figures = current.map((f) => {
    const old = append ? before.get(keyOf(f)) : undefined;
    if (!old) return f;
    const runs = [...old.runs, ...f.runs];
    const ledger = old.ledger || f.ledger ? [...(old.ledger ?? []), ...(f.ledger ?? [])] : undefined;
    return { ...f, runs, ledger, median: medianRun(runs) };
  });
  const measured = new Set(figures.map(keyOf));
  const all = [...earlier.filter((f) => !measured.has(keyOf(f))), ...figures].sort((a, b) => a.items - b.items || VARIANTS.indexOf(a.variant) - VARIANTS.indexOf(b.variant));
  const method = `regular mode, SQLite, manual executions saved; a fresh \`n8n start\` per run, after a ${WARM_UP_ITEMS}-item warm-up run of the same workflow; RSS of n8n main from /proc/<pid>/status (${highWaterMarkReset ? 'VmHWM reset through clear_refs, and VmRSS sampled every 20 ms' : 'VmRSS sampled every 20 ms'})`;
  const results: N8nScaleResults = { machine: machine(), n8n: '2.41.1', method, figures: all };
  writeFileSync(join(root, N8N_SCALE_RESULTS), `${JSON.stringify(results, null, 2)}\n`);
  writeReport(root, readResults(root));
}

async function main(): Promise<void> {
  const { sizes, variants, runs, largestRuns, append, cpuProfDir } = options();
  const root = repoRoot();
  const earlier = earlierRows(root);
  const largest = Math.max(...sizes);
  const work = await mkdtemp(join(tmpdir(), 'bench-n8n-scale-'));
  const accounts = demoConfig.accounts.map((a) => (a.id === 'acc_demo' ? { ...a, rate_limit: 1e9, credits: 1e12 } : a));
  const sandbox = await start({ port: 0, host: '127.0.0.1', config: { window_seconds: 60, accounts }, retainMessages: largest });
  let home: N8nHome | undefined;
  const cleanUp = async () => {
    await killAll();
    await sandbox.close();
    await home?.cleanup();
    await rm(work, { recursive: true, force: true });
  };
  // Stopped by hand (100,000 items take long): the rounds already saved stay; no n8n or temp dir is left.
  const stop = () => void cleanUp().finally(() => process.exit(130));
  process.once('SIGINT', stop).once('SIGTERM', stop);
  try {
    const tarball = await buildAndPackMessagingPackage(work);
    home = await createN8nHome({ packageTarball: tarball, packageName: MESSAGING_PACKAGE });
    await importCredentials(home, [{ ...CREDENTIAL, type: 'messagingServiceApi', data: { apiKey: KEY, baseUrl: sandbox.url } }]);
    const ctx = { home, sandbox, owner: OWNER, timeoutMs: 30 * 60_000, n8nEnv: cpuProfDir ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${cpuProfDir}` } : undefined };
    const figures: VariantFigures[] = [];
    let highWaterMarkReset = true;
    for (const items of sizes) {
      const count = items === largest ? largestRuns : runs;
      const at = new Map(variants.map((v) => [v, { variant: v, items, runs: [], ledger: v.startsWith('sendBatch') ? [] : undefined } as Omit<VariantFigures, 'median'>]));
      // Round-robin over the variants, so a change in the machine's load falls on all of them alike.
      for (let run = 1; run <= count; run++) {
        for (const variant of variants) {
          const label = `${variant} ${items} #${run}`;
          const measured = await measureRun(ctx, variant, items, label);
          highWaterMarkReset &&= measured.highWaterMarkReset;
          const row = at.get(variant)!;
          row.runs.push(measured.figures);
          if (measured.ledger) row.ledger!.push(measured.ledger);
          const { nodeMs, wallMs, addedRssBytes } = measured.figures;
          const ledger = measured.ledger ? `, ${measured.ledger.delivered} delivered in ${measured.ledger.calls} calls (want ${items} in ${expectedCalls(items)})` : '';
          process.stderr.write(`  ${label}: node ${nodeMs} ms, wall ${wallMs} ms, +${(addedRssBytes / 2 ** 20).toFixed(0)} MiB RSS${ledger}\n`);
        }
        // After each round, so a bench stopped early (100,000 items take long) keeps the rounds it finished.
        if (!cpuProfDir) save(root, earlier, [...figures, ...[...at.values()].map((row) => ({ ...row, median: medianRun(row.runs) }))], append, highWaterMarkReset);
      }
      for (const row of at.values()) figures.push({ ...row, median: medianRun(row.runs) });
    }
    const results = readN8nScaleResults(root)!;
    console.log(n8nScaleTableLines(results).join('\n'));
    console.log(`\n${ratioLines(results).join('\n')}`);
    const all = results.figures;
    const short = all.flatMap((f) => (f.ledger ?? []).filter((l) => !deliveredExactly(l, f.items)).map(() => `${f.variant} at ${f.items}`));
    if (short.length > 0) {
      console.error(`\nNot every message delivered once in ⌈N/500⌉ calls: ${short.join('; ')}`);
      process.exitCode = 1;
    } else console.log('\nEvery Send Batch run delivered every message once, in ⌈N/500⌉ calls (sandbox ledger, read in pages).');
    console.log(`Wrote ${N8N_SCALE_RESULTS} and docs/benchmarks.md.`);
  } finally {
    await cleanUp();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
