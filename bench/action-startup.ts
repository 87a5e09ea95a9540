/**
 * What the GitHub Action's bundle weighs and how fast it starts.
 *
 *   node bench/action-startup.ts            (Node 24: `export PATH=$PWD/node_modules/.bin:$PATH` first)
 *   BEFORE=<git ref> node bench/action-startup.ts   (compare with another commit's committed dist; default main)
 *
 * 1. Bundle size: the committed action/dist, the dist at BEFORE, and what each import costs on its own
 *    (each bundled alone by ncc with the same flags).
 * 2. Cold start: from spawning `node action/dist/index.js` (send mode, as the runner runs it) to the
 *    first request reaching a local HTTP server, against spawning `node -e ''` until it exits. Medians
 *    of interleaved rounds, printed as ratios to bare node.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { jsBytes } from './action-figures.ts';
import { median, startColdStartProbe } from './cold-start-probe.ts';

const ROOT = join(dirname(process.argv[1]), '..');
const DIST = join(ROOT, 'action', 'dist', 'index.js');
const NCC = join(ROOT, 'node_modules', '@vercel', 'ncc', 'dist', 'ncc', 'cli.js');
const RUNS = Number(process.env.RUNS ?? 15);
const BEFORE = process.env.BEFORE ?? 'main';
const MB = (n: number) => `${(n / 1e6).toFixed(2)} MB`;

// ------------------------------------------------------------------ 1. bundle sizes

const work = join(ROOT, 'node_modules', '.cache', 'action-startup');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

function bundle(name: string, code: string): number {
  const entry = join(work, `${name}.mjs`);
  writeFileSync(entry, code);
  const out = join(work, `out-${name}`);
  execFileSync(process.execPath, [NCC, 'build', entry, '-o', out, '--minify', '--transpile-only', '--quiet'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  return jsBytes(out);
}

const variants: [string, string, string][] = [
  ['core', '@actions/core 3 (public entry) alone', `import * as core from '@actions/core'; core.info(String(core.getInput('x')));`],
  ['github', '@actions/github 9 `context` alone (not used)', `import { context } from '@actions/github'; console.log(context.eventName);`],
  ['undici', 'undici 8 EnvHttpProxyAgent + request alone', `import { EnvHttpProxyAgent, request } from 'undici'; console.log(typeof request, new EnvHttpProxyAgent());`],
  ['handlebars', 'handlebars 4 (compiler) alone', `import H from 'handlebars'; console.log(H.compile('{{a}}', { strict: true })({ a: 1 }));`],
  ['csv', 'csv-parse/sync alone (lazy chunk)', `import { parse } from 'csv-parse/sync'; console.log(parse('a\\n1', { columns: true }));`],
  ['yaml', 'yaml 2 alone (lazy chunk)', `import { parseDocument } from 'yaml'; console.log(parseDocument('a: 1').toJS());`],
];

console.log('Bundle sizes (ncc --minify; JavaScript only, source maps beside it in dist/ not counted, their loader counted):');
for (const [name, label, code] of variants) console.log(`  ${label.padEnd(46)} ${MB(bundle(name, code)).padStart(9)}`);
const beforeDir = join(work, 'before');
mkdirSync(beforeDir, { recursive: true });
execFileSync('sh', ['-c', `git archive ${BEFORE} action/dist | tar -x -C ${JSON.stringify(beforeDir)}`], { cwd: ROOT });
const BEFORE_DIST = join(beforeDir, 'action', 'dist', 'index.js');
const distSize = jsBytes(dirname(DIST));
const beforeSize = jsBytes(dirname(BEFORE_DIST));
console.log(`  ${`action/dist at ${BEFORE} (all .js)`.padEnd(46)} ${MB(beforeSize).padStart(9)}   (index.js ${MB(statSync(BEFORE_DIST).size)})`);
console.log(`  ${'committed action/dist (all .js)'.padEnd(46)} ${MB(distSize).padStart(9)}   (index.js ${MB(statSync(DIST).size)}; csv-parse and yaml are chunks loaded on use)`);

// ------------------------------------------------------------------ 2. cold start

async function main(): Promise<void> {
  const { base, once, close } = await startColdStartProbe();

  const rows: [string, string[], boolean][] = [
    ["node -e ''                               (spawn → exit)         ", ['-e', ''], true],
    ['floor: a script doing one fetch          (spawn → first request)', ['--input-type=module', '-e', `await fetch(${JSON.stringify(`${base}/messages`)}, { method: 'POST', body: '{}' });`], false],
    [`action/dist at ${BEFORE}`.padEnd(41) + '(spawn → first request)', [BEFORE_DIST], false],
    ['action/dist/index.js                     (spawn → first request)', [DIST], false],
  ];
  // Interleaved rounds (one run of each per round) so that machine load hits every row alike.
  const times = rows.map(() => [] as number[]);
  for (const [, args, toExit] of rows) await once(args, toExit); // warm the file cache
  for (let round = 0; round < RUNS; round++) {
    for (const [i, [, args, toExit]] of rows.entries()) times[i].push(await once(args, toExit));
  }
  const bare = median(times[0]);
  console.log(`\nCold start (median of ${RUNS} interleaved rounds, Node ${process.versions.node}):`);
  for (const [i, [label]] of rows.entries()) {
    const t = median(times[i]);
    const ratio = t / bare;
    console.log(`  ${label} ${t.toFixed(0).padStart(5)} ms${i ? `  = ${ratio.toFixed(2)}× bare node` : ''}`);
  }
  close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
