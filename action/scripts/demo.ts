/**
 * `npm start`: the whole story of the GitHub Action, on the sandbox. Runs the built action
 * (action/dist/index.js) exactly as a runner would — Node 24 child process, INPUT_* and GITHUB_* env,
 * GITHUB_OUTPUT / GITHUB_STEP_SUMMARY files — for:
 *   1. sync-contacts from examples/contacts.csv (wait for the import job);
 *   2. a release notification rendered from examples/release-event.json to those contacts;
 *   3. step 2 again as "Re-run jobs" would (same run id, attempt 2): nothing is sent twice;
 *   4. a contacts file with a bad row: the step fails with a file:line annotation;
 * then prints the workflow YAML to paste and where to look at what the service received.
 *
 *   npm start                 (keeps the sandbox running for its inbox page when run in a terminal)
 *   npm start -- --no-keep    (stop when done; then no inbox link is printed, as nothing would answer it)
 *   npm start -- --screenshot docs/images/inbox.png   (README's picture: the inbox holding the demo's data)
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';
import { start } from '../../sandbox/server.ts';
import { screenshotInbox } from './inbox-screenshot.ts';

const { values: args } = parseArgs({ options: { keep: { type: 'boolean', default: Boolean(process.stdout.isTTY) }, screenshot: { type: 'string' } }, allowNegative: true });
const ROOT = resolve(dirname(process.argv[1]), '..', '..');
const DIST = join(ROOT, 'action', 'dist', 'index.js');
const API_KEY = 'sk_test_demo_ok';
const bar = '═'.repeat(78);

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

interface Step {
  title: string;
  inputs: Record<string, string>;
  workspace?: string;
  attempt?: string;
}

async function step({ title, inputs, workspace = ROOT, attempt = '1' }: Step, baseUrl: string): Promise<number> {
  const temp = mkdtempSync(join(tmpdir(), 'messaging-demo-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    GITHUB_ACTIONS: 'true',
    GITHUB_OUTPUT: join(temp, 'output'),
    GITHUB_STEP_SUMMARY: join(temp, 'summary'),
    GITHUB_WORKSPACE: workspace,
    GITHUB_EVENT_PATH: join(ROOT, 'examples', 'release-event.json'),
    GITHUB_EVENT_NAME: 'release',
    GITHUB_REPOSITORY: 'acme/shop',
    GITHUB_RUN_ID: '9100001',
    GITHUB_RUN_NUMBER: '57',
    GITHUB_RUN_ATTEMPT: attempt,
    GITHUB_JOB: 'announce',
    GITHUB_ACTION: 'notify',
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
  for (const [name, value] of Object.entries({ ...defaults, 'api-key': API_KEY, 'base-url': baseUrl, ...inputs })) env[`INPUT_${name.toUpperCase()}`] = value;
  console.log(`\n${bar}\n▶ ${title}\n${bar}`);
  try {
    const code = await new Promise<number>((done) => {
      execFile(process.execPath, [DIST], { env, cwd: workspace }, (error, stdout, stderr) => {
        const log = stdout
          .split('\n')
          .filter((l) => l && !l.startsWith('::add-mask::'))
          .map((l) => `  │ ${l}`)
          .join('\n');
        console.log(`── log (what the runner shows; ::error file=…,line=… lines become annotations on the file) ──\n${log}${stderr ? `\n  │ (stderr) ${stderr.trim()}` : ''}`);
        done(error ? (typeof error.code === 'number' ? error.code : 1) : 0);
      });
    });
    console.log(`── exit code ${code} ── outputs ──`);
    for (const [k, v] of Object.entries(outputsOf(readFileSync(env.GITHUB_OUTPUT, 'utf8')))) {
      if (v) console.log(`  ${k.padEnd(16)} ${v.length > 140 ? `${v.slice(0, 140)}… (${v.length} chars)` : v}`);
    }
    console.log(`── job summary (GITHUB_STEP_SUMMARY) ──\n${readFileSync(env.GITHUB_STEP_SUMMARY, 'utf8').trim()}`);
    return code;
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

const notify = {
  mode: 'send',
  channel: 'email',
  'to-file': 'examples/contacts.csv',
  subject: '{{ repo.name }} {{ event.release.tag_name }} is out',
  body: '{{ event.release.name }}: {{ event.release.body }}\nRelease notes: {{ event.release.html_url }}\n(sent by {{ run.workflow }} run {{ run.number }} for {{ event.release.author.login }})',
};

const sandbox = await start({ port: 0 });
const badWorkspace = mkdtempSync(join(tmpdir(), 'messaging-demo-ws-'));
writeFileSync(join(badWorkspace, 'contacts.csv'), 'first_name,email\nAda,ada@example.com\nTypo,ada-at-example.com\n');
console.log(`Sandbox (demo config) at ${sandbox.url}; running ${DIST} with Node ${process.versions.node}, as a runner would.`);
let unexpected = 0;
try {
  unexpected += (await step({ title: 'Step 1 — sync-contacts: examples/contacts.csv → the service', inputs: { mode: 'sync-contacts', file: 'examples/contacts.csv', 'wait-timeout': '60' } }, sandbox.url)) ? 1 : 0;
  unexpected += (await step({ title: 'Step 2 — send: a release notification from examples/release-event.json', inputs: notify }, sandbox.url)) ? 1 : 0;
  unexpected += (await step({ title: 'Step 2 again — "Re-run jobs" (same run id, attempt 2): nothing is sent twice', inputs: notify, attempt: '2' }, sandbox.url)) ? 1 : 0;
  const bad = await step({ title: 'Step 3 — a contacts file with a bad row: the step fails, annotated at contacts.csv:3', inputs: { mode: 'sync-contacts', file: 'contacts.csv', 'wait-timeout': '60' }, workspace: badWorkspace }, sandbox.url);
  if (bad !== 1) unexpected += 1;

  const summary = sandbox.control.summary();
  console.log(`\n${bar}\n▶ The workflow to paste (examples/workflows/release-notification.yml)\n${bar}`);
  console.log(readFileSync(join(ROOT, 'examples', 'workflows', 'release-notification.yml'), 'utf8').trimEnd());
  console.log(`\n${bar}\n▶ Where to look\n${bar}`);
  console.log(`  Sandbox ledger: ${summary.contacts} contacts, ${summary.jobs} import job(s), ${summary.messages} messages, ${summary.duplicates_detected} duplicates, ${summary.requests} API requests.`);
  if (args.keep) console.log(`  Inbox (every message the service received): ${sandbox.origin}/`);
  else console.log('  Inbox: this sandbox stops now; run `npm start` in a terminal (or `npm start -- --keep`) to keep it and open its inbox.');
  console.log('  On GitHub: the job summary of the run, the annotations on the file, and the step outputs. Docs: docs/github-action.md');
  if (args.screenshot) console.log(`  Screenshot of the inbox: ${await screenshotInbox(sandbox.origin, resolve(args.screenshot))}`);
  if (args.keep) {
    console.log('\nThe sandbox keeps running for its inbox page; Ctrl-C stops it.');
    await new Promise<void>((stop) => process.once('SIGINT', () => stop()));
  }
} finally {
  await sandbox.close();
  rmSync(badWorkspace, { recursive: true, force: true });
}
process.exitCode = unexpected ? 1 : 0;
