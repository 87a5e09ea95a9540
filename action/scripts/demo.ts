/**
 * `npm start`: the project's main job on the embedded default. Starts the sandbox with its demo config,
 * then runs the built action (action/dist/index.js) exactly as a runner would — Node 24 child process,
 * INPUT_* and GITHUB_* env, GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files — for two steps of a release
 * workflow:
 *   1. sync-contacts from examples/contacts.csv (wait for the import job);
 *   2. send a release notification rendered from examples/release-event.json to those contacts;
 * then re-runs step 2 as "Re-run jobs" would (same run id, attempt 2) to show nothing is sent twice.
 * Prints each step's log, outputs and job summary, and stops the sandbox.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parse } from 'yaml';
import { start } from '../../sandbox/server.ts';

const ROOT = resolve(dirname(process.argv[1]), '..', '..');
const DIST = join(ROOT, 'action', 'dist', 'index.js');
const API_KEY = 'sk_test_demo_ok';

const defaults = Object.fromEntries(
  Object.entries((parse(readFileSync(join(ROOT, 'action', 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> }).inputs).map(([k, v]) => [k, v.default ?? '']),
);

function outputsOf(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([^=<]+)<<(.+)$/.exec(lines[i]);
    if (!m) continue;
    const value: string[] = [];
    for (i++; i < lines.length && lines[i] !== m[2]; i++) value.push(lines[i]);
    outputs[m[1]] = value.join('\n');
  }
  return outputs;
}

async function step(title: string, inputs: Record<string, string>, baseUrl: string, attempt = '1'): Promise<number> {
  const temp = mkdtempSync(join(tmpdir(), 'relay-demo-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: join(temp, 'output'),
    GITHUB_STEP_SUMMARY: join(temp, 'summary'),
    GITHUB_WORKSPACE: ROOT,
    GITHUB_EVENT_PATH: join(ROOT, 'examples', 'release-event.json'),
    GITHUB_EVENT_NAME: 'release',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_RUN_ID: '9100001',
    GITHUB_RUN_NUMBER: '57',
    GITHUB_RUN_ATTEMPT: attempt,
    GITHUB_JOB: 'announce',
    GITHUB_WORKFLOW: 'Release',
    GITHUB_ACTOR: 'octocat',
    GITHUB_SHA: '5d1f0c2a9e8b7c6d5e4f3a2b1c0d9e8f7a6b5c4d',
    GITHUB_REF: 'refs/tags/v2.4.0',
    GITHUB_REF_NAME: 'v2.4.0',
    GITHUB_SERVER_URL: 'https://github.com',
    RUNNER_TEMP: temp,
  };
  writeFileSync(env.GITHUB_OUTPUT, '');
  writeFileSync(env.GITHUB_STEP_SUMMARY, '');
  for (const [name, value] of Object.entries({ ...defaults, 'api-key': API_KEY, 'base-url': baseUrl, ...inputs })) {
    env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] = value;
  }
  const bar = '═'.repeat(78);
  console.log(`\n${bar}\n▶ ${title}\n${bar}`);
  const started = Date.now();
  const code = await new Promise<number>((done) => {
    execFile(process.execPath, [DIST], { env, cwd: ROOT }, (error, stdout, stderr) => {
      const log = stdout
        .split('\n')
        .filter((l) => l && !l.startsWith('::add-mask::'))
        .map((l) => `  │ ${l}`)
        .join('\n');
      console.log(`── log ──\n${log}${stderr ? `\n  │ (stderr) ${stderr.trim()}` : ''}`);
      done(error ? (typeof error.code === 'number' ? error.code : 1) : 0);
    });
  });
  const outputs = outputsOf(readFileSync(env.GITHUB_OUTPUT, 'utf8'));
  console.log(`── exit code ${code} in ${Date.now() - started} ms ── outputs ──`);
  for (const [k, v] of Object.entries(outputs)) console.log(`  ${k.padEnd(16)} ${v.length > 160 ? `${v.slice(0, 160)}… (${v.length} chars)` : v}`);
  console.log(`── job summary (GITHUB_STEP_SUMMARY) ──\n${readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8').trim()}`);
  rmSync(temp, { recursive: true, force: true });
  return code;
}

const sandbox = await start({ port: 0 });
console.log(`Sandbox (demo config) at ${sandbox.url}; running ${DIST} with ${process.execPath} (Node ${process.versions.node}).`);
let failures = 0;
try {
  failures += (await step('Step 1 — sync-contacts: examples/contacts.csv → the service', { mode: 'sync-contacts', file: 'examples/contacts.csv', 'wait-timeout': '60' }, sandbox.url)) ? 1 : 0;
  const notify = {
    mode: 'send',
    channel: 'email',
    'to-file': 'examples/contacts.csv',
    subject: '{{ repo.name }} {{ event.release.tag_name }} is out',
    body: '{{ event.release.name }}: {{ event.release.body }}\nRelease notes: {{ event.release.html_url }}\n(sent by {{ run.workflow }} run {{ run.number }} for {{ event.release.author.login }})',
  };
  failures += (await step('Step 2 — send: release notification from examples/release-event.json', notify, sandbox.url)) ? 1 : 0;
  failures += (await step('Step 2 again — "Re-run jobs" (same run id, attempt 2): nothing is sent twice', notify, sandbox.url, '2')) ? 1 : 0;
  const summary = sandbox.control.summary();
  console.log(`\nSandbox ledger: ${summary.contacts} contacts, ${summary.jobs} import job(s), ${summary.messages} messages, ${summary.duplicates_detected} duplicates, ${summary.requests} API requests.`);
  console.log('Where to look: this demo\'s sandbox stops now. `npm run sandbox` keeps one running; its inbox at http://127.0.0.1:4010/ shows live what a workflow delivered (messages, contacts, jobs, replays, faults, rate windows).');
} finally {
  await sandbox.close();
}
process.exitCode = failures ? 1 : 0;
