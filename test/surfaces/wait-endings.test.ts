/**
 * Both surfaces wait the same time for an import job by default, and tell a job still running in the
 * same sentence (src/wait-ending.ts), each naming its own setting and its own way to read the job again,
 * never the client's internal names. Real HTTP to a sandbox whose jobs barely move.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { parse } from 'yaml';
import { DEFAULT_WAIT_TIMEOUT_SECONDS, stillRunning } from '../../src/index.ts';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import { run } from '../../action/src/main.ts';
import { ACTION_WORDS } from '../../action/src/surface-words.ts';
import { MessagingService } from '../../nodes/MessagingService/MessagingService.node.ts';
import { NODE_WORDS } from '../../nodes/MessagingService/helpers/surface-words.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { context, fakeCore, removeTempDirs, ROOT, workspace } from '../action/helpers.ts';
import { runNode } from '../node/harness.ts';
import { credentialsFor, startSandbox } from '../node/support.ts';

let sb: Sandbox;
let jobId: string;
beforeAll(async () => {
  sb = await startSandbox({ job_rows_per_second: 0.001 });
});
afterAll(async () => {
  await sb.close();
  removeTempDirs();
});
beforeEach(async () => {
  sb.control.reset();
  const res = await fetch(`${sb.url}/contacts/bulk`, { method: 'POST', headers: { authorization: 'Bearer sk_test_demo_ok', 'content-type': 'application/json', 'idempotency-key': `slow-${Date.now()}` }, body: JSON.stringify({ contacts: [{ email: 'a@example.com' }, { email: 'b@example.com' }] }) });
  jobId = ((await res.json()) as { data: { id: string } }).data.id;
});

test('one default wait: the action input and every node Timeout field start at the same figure', () => {
  const yml = parse(readFileSync(join(ROOT, 'action', 'action.yml'), 'utf8')) as { inputs: Record<string, { default?: string }> };
  expect(Number(yml.inputs['wait-timeout']!.default)).toBe(DEFAULT_WAIT_TIMEOUT_SECONDS);
  const timeouts = new MessagingService().description.properties.filter((p) => /timeout/i.test(p.name));
  expect(timeouts.map((p) => p.name).sort()).toEqual(['timeoutSeconds', 'waitTimeoutSeconds']);
  for (const field of timeouts) expect(field.default).toBe(DEFAULT_WAIT_TIMEOUT_SECONDS);
});

test('a job still running at the timeout: the same sentence on both surfaces, in each one\'s own words', async () => {
  const node = await runNode({ parameters: { resource: 'job', operation: 'wait', jobId, timeoutSeconds: 1 }, items: [{}], credentials: credentialsFor(sb) });
  const nodeText = `${node.error?.message} ${(node.error as { description?: string } | undefined)?.description ?? ''}`;
  expect(nodeText).toContain(stillRunning([jobId], NODE_WORDS, true));

  const dispatcher = new Agent();
  try {
    const { dir } = workspace({});
    const core = fakeCore({ 'api-key': 'sk_test_demo_ok', 'base-url': sb.url, mode: 'import-status', 'import-job-ids': jobId, 'wait-timeout': '1' });
    await run({ core, context: context(), env: { GITHUB_WORKSPACE: dir, GITHUB_REPOSITORY: 'acme/shop' }, runtime: nodeRuntime(undiciTransport({ dispatcher })) });
    const actionText = core.everything();
    expect(actionText).toContain(stillRunning([jobId], ACTION_WORDS, true));
    expect(core.failed).toBeDefined();
  } finally {
    await dispatcher.close();
  }
  for (const text of [nodeText]) expect(text).not.toMatch(/jobs\.wait|timeoutMs/);
}, 30_000);
