/**
 * An import job read by its id says the same on both surfaces (src/job-results.ts): the node's Job →
 * Get / Wait and the action's `mode: import-status` count `imported` the same way and word the job in
 * one line, each in its own words for a job still running. Real HTTP to a sandbox.
 */
import { Agent } from 'undici';
import { describeJobResults, jobResult } from '../../src/index.ts';
import type { Job } from '../../src/index.ts';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import { run } from '../../action/src/main.ts';
import { mdText } from '../../action/src/markdown.ts';
import { ACTION_WORDS } from '../../action/src/surface-words.ts';
import { NODE_WORDS } from '../../nodes/MessagingService/helpers/surface-words.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { context, fakeCore, removeTempDirs, workspace } from '../action/helpers.ts';
import { runNode } from '../node/harness.ts';
import { credentialsFor, startSandbox } from '../node/support.ts';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox({ job_rows_per_second: 10_000 });
});
afterAll(async () => {
  await sb.close();
  removeTempDirs();
});
beforeEach(() => sb.control.reset());

async function importJob(contacts: unknown[]): Promise<string> {
  const res = await fetch(`${sb.url}/contacts/bulk`, { method: 'POST', headers: { authorization: 'Bearer sk_test_demo_ok', 'content-type': 'application/json', 'idempotency-key': `jr-${Date.now()}-${Math.random()}` }, body: JSON.stringify({ contacts }) });
  return ((await res.json()) as { data: { id: string } }).data.id;
}

async function readJob(id: string): Promise<Job> {
  const res = await fetch(`${sb.url}/jobs/${id}`, { headers: { authorization: 'Bearer sk_test_demo_ok' } });
  return ((await res.json()) as { data: Job }).data;
}

async function actionRead(id: string, wait: boolean) {
  const dispatcher = new Agent();
  try {
    const { dir } = workspace({});
    const core = fakeCore({ 'api-key': 'sk_test_demo_ok', 'base-url': sb.url, mode: 'import-status', 'import-job-ids': id, wait: String(wait), 'wait-timeout': '30', 'fail-on-error': 'false' });
    await run({ core, context: context(), env: { GITHUB_WORKSPACE: dir, GITHUB_REPOSITORY: 'acme/shop' }, runtime: nodeRuntime(undiciTransport({ dispatcher })) });
    return core;
  } finally {
    await dispatcher.close();
  }
}

test('a finished job with a refused row: the same counts and line on both surfaces', async () => {
  const id = await importJob([{ email: 'a@example.com' }, { email: 'not-an-email' }, { email: 'c@example.com' }]);
  const node = await runNode({ parameters: { resource: 'job', operation: 'wait', jobId: id, timeoutSeconds: 30 }, items: [{}], credentials: credentialsFor(sb) });
  const json = node.outputs[0]![0]!.json;
  expect(json).toMatchObject({ id, processed: 3, failed: 1, imported: 2, outcome: '2 imported, 1 failed' });

  const core = await actionRead(id, true);
  expect(core.outputs.imported).toBe('2');
  expect(core.outputs.failed).toBe('1');
  expect(core.outputs['import-status']).toBe('completed');
  expect(core.summaryText).toContain(`- ${mdText(`Contacts: ${json.outcome}.`)}`);
});

test('a job still queued, read without waiting: "not processed yet", each surface naming its own way to read it again', async () => {
  sb.control.configure({ job_rows_per_second: 0 });
  const id = await importJob([{ email: 'a@example.com' }, { email: 'b@example.com' }]);
  const node = await runNode({ parameters: { resource: 'job', operation: 'get', jobId: id }, items: [{}], credentials: credentialsFor(sb) });
  const outcome = node.outputs[0]![0]!.json.outcome as string;
  const job = await readJob(id);
  expect(outcome).toBe(describeJobResults([jobResult(job, false)], NODE_WORDS));
  expect(outcome).toMatch(new RegExp(`^0 imported, 2 not processed yet \\(job ${id}: it keeps running on the service: wait for it later with Job → Wait`));

  const core = await actionRead(id, false);
  expect(core.outputs['import-status']).toBe('queued');
  expect(core.outputs.imported).toBe('0');
  expect(core.summaryText).toContain(`- ${mdText(`Contacts: ${describeJobResults([jobResult(job, false)], ACTION_WORDS)}.`)}`);
  expect(core.summaryText).toContain('mode: import-status and import-job-ids');
});
