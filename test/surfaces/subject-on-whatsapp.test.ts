/**
 * One rule on both surfaces (src/channel-rules.ts): a subject from the user's settings goes only to
 * channels that take one. On WhatsApp the n8n node's Subject field and the action's `subject` input are
 * left out, the message is sent, and both say so in the same words. Real HTTP to the sandbox; the node in
 * n8n-core's engine, the action's run() with an injected core.
 */
import { Agent } from 'undici';
import { subjectNotSentNotice } from '../../src/index.ts';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import { run } from '../../action/src/main.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { context, fakeCore, removeTempDirs, workspace } from '../action/helpers.ts';
import { runNode } from '../node/harness.ts';
import { credentialsFor, startSandbox } from '../node/support.ts';
import { ledgerRows } from '../support/ledger-rows.ts';

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(async () => {
  await sb.close();
  removeTempDirs();
});
beforeEach(() => sb.control.reset());

const subjects = () => ledgerRows(sb).messages.map((m) => [m.channel, m.subject]);

test('the n8n node: WhatsApp items are sent without the Subject, email items with it, and a hint says so', async () => {
  const items = [
    { channel: 'whatsapp', to: '+4915112345678' },
    { channel: 'email', to: 'ada@example.com' },
    { channel: 'whatsapp', to: '+4915187654321' },
  ];
  const parameters = { resource: 'message', operation: 'sendBatch', channel: '={{ $json.channel }}', to: '={{ $json.to }}', subject: 'Your order', body: 'Shipped.' };
  const { outputs, error, hints } = await runNode({ parameters, items, credentials: credentialsFor(sb) });
  expect(error).toBeUndefined();
  expect(outputs[0]!.every((item) => typeof item.json.id === 'string')).toBe(true);
  expect(subjects()).toEqual(expect.arrayContaining([['whatsapp', null], ['email', 'Your order'], ['whatsapp', null]]));
  expect(hints).toContain(subjectNotSentNotice(['whatsapp'], 2));
});

test('the action: the subject input is left out on WhatsApp, the message is sent, and the log says so in the same words', async () => {
  const dispatcher = new Agent();
  try {
    const { dir } = workspace({});
    const core = fakeCore({ 'api-key': 'sk_test_demo_ok', 'base-url': sb.url, mode: 'send', channel: 'whatsapp', to: '+4915112345678', subject: 'Your order', body: 'Shipped.' });
    await run({ core, context: context(), env: { GITHUB_WORKSPACE: dir, GITHUB_REPOSITORY: 'acme/shop' }, runtime: nodeRuntime(undiciTransport({ dispatcher })) });
    expect(core.outputs.sent).toBe('1');
    expect(subjects()).toEqual([['whatsapp', null]]);
    expect(core.logs).toContain(subjectNotSentNotice(['whatsapp']));
  } finally {
    await dispatcher.close();
  }
});
