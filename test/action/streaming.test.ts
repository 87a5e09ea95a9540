/**
 * Streamed data files through the bundle as the runner starts it, against the sandbox: nothing is sent
 * when a row at the end of a file is bad or a JSON/YAML file is over its limit, and results-file holds
 * every row when the bounded outputs cannot. The file changing between the two passes is run() in-process.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Agent } from 'undici';
import { run } from '../../action/src/main.ts';
import { actionChunkKeys } from '../../src/index.ts';
import { nodeRuntime } from '../../src/runtime/node-runtime.ts';
import { undiciTransport } from '../../src/runtime/undici-transport.ts';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { ledgerRows } from '../support/ledger-rows.ts';
import { context, fakeCore, RELEASE_EVENT, tempDir, workspace } from './helpers.ts';
import { runStep, useBundleSandbox } from './runner.ts';

const KEY = 'sk_test_demo_ok';
const sandbox = useBundleSandbox();

const messagesCsv = (n: number, from = 0, pad = 0) => `to,body\n${Array.from({ length: n }, (_, i) => `user${from + i}@example.com,Hello ${from + i}${' .'.repeat(pad)}`).join('\n')}\n`;

test('a JSON Lines batch whose last row is bad: annotated at its true line, nothing sent', async () => {
  const rows = Array.from({ length: 1200 }, (_, i) => JSON.stringify({ to: `u${i}@example.com`, body: 'hi' }));
  const file = `${rows.join('\n')}\n\n{"to":"last@example.com"}\n`;
  const r = await runStep({ 'api-key': KEY, 'base-url': sandbox.url, mode: 'batch', channel: 'email', file: 'data/messages.jsonl' }, { files: { 'data/messages.jsonl': file }, event: RELEASE_EVENT });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain('::error title=Messaging Service,file=data/messages.jsonl,line=1202::Invalid message: missing body (or set the body input)');
  expect(r.stdout).toContain('1 of 1201 message(s) in data/messages.jsonl are invalid (first, data/messages.jsonl:1202: missing body (or set the body input)); nothing was sent.');
  expect(ledgerRows(sandbox).requests).toBe(0);
});

test.each([
  ['json', 'data/contacts.json', JSON.stringify({ contacts: [{ email: 'ann@example.com', first_name: 'Ann' }, { email: 'bob@example.com' }] })],
  ['yaml', 'data/contacts.yml', 'contacts:\n  - email: ann@example.com\n    first_name: Ann\n  - email: bob@example.com\n'],
])('a %s file over the document limit fails before any call, naming its size, the limit and the streaming formats', async (_, path, text) => {
  const inputs = { 'api-key': KEY, 'base-url': sandbox.url, mode: 'sync-contacts', file: path };
  const over = await runStep(inputs, { files: { [path]: text }, event: RELEASE_EVENT, env: { MESSAGING_SERVICE_DOCUMENT_LIMIT_BYTES: '64' } });
  expect(over.code).toBe(1);
  expect(over.stdout).toContain(`${path} is ${Buffer.byteLength(text)} bytes`);
  expect(over.stdout).toContain('over the 64-byte');
  expect(over.stdout).toContain('Write it as CSV or JSON Lines');
  expect(ledgerRows(sandbox).requests).toBe(0);
  // Under the limit the same file is imported.
  const under = await runStep(inputs, { files: { [path]: text }, event: RELEASE_EVENT, env: { MESSAGING_SERVICE_DOCUMENT_LIMIT_BYTES: String(Buffer.byteLength(text)) } });
  expect(under.code).toBe(0);
  expect(ledgerRows(sandbox).contacts.length).toBe(2);
});

test('results-file holds every row and id of a batch larger than the bounded outputs; a re-run replays every chunk', async () => {
  const n = 1201;
  const inputs = { 'api-key': KEY, 'base-url': sandbox.url, mode: 'batch', channel: 'email', file: 'data/messages.csv' };
  const r = await runStep(inputs, { files: { 'data/messages.csv': messagesCsv(n) }, event: RELEASE_EVENT });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe(String(n));
  expect((JSON.parse(r.outputs.ids) as string[]).length).toBe(1000);
  const doc = JSON.parse(readFileSync(r.outputs['results-file'], 'utf8')) as { results: { index: number; line: number; status: string; key: string }[]; ids: string[]; counts: { sent: number }; importJobIds: string[]; jobIds: string[] };
  expect(doc.results.map((x) => x.index)).toEqual(Array.from({ length: n }, (_, i) => i));
  expect(doc.results[n - 1].line).toBe(n + 1);
  expect(new Set(doc.ids).size).toBe(n);
  expect(doc.counts.sent).toBe(n);
  expect(doc.importJobIds).toEqual(doc.jobIds);
  // Three chunks of ≤ 500, three keys; the messages of the ledger are exactly the file's.
  const keys = [...new Set(doc.results.map((x) => x.key))];
  expect(keys).toHaveLength(3);
  expect(ledgerRows(sandbox).messages).toHaveLength(n);
  const again = await runStep(inputs, { workspaceDir: r.workspace, event: RELEASE_EVENT });
  expect(again.outputs.sent).toBe(String(n));
  expect(ledgerRows(sandbox).messages).toHaveLength(n);
  const replayed = JSON.parse(readFileSync(again.outputs['results-file'], 'utf8')) as { results: { replayed?: boolean; key: string }[] };
  expect(replayed.results.every((x) => x.replayed === true)).toBe(true);
  expect([...new Set(replayed.results.map((x) => x.key))]).toEqual(keys);
});

test('the file changes between the checking pass and the sending pass: what changed is never sent', async () => {
  const dispatcher = new Agent();
  try {
    // 2,500 rows of ~230 bytes: pass 2 reads the file in 256 KiB buffers, so it is still reading when it changes.
    const { dir } = workspace({ 'data/messages.csv': messagesCsv(2500, 0, 100) });
    const path = join(dir, 'data/messages.csv');
    const runtime = nodeRuntime(undiciTransport({ dispatcher }));
    let edited = false;
    // At the first call (pass 2 has read its first group), rows of a later group change on disk.
    const transport: typeof runtime.transport = async (request) => {
      if (!edited) {
        edited = true;
        writeFileSync(path, `${messagesCsv(1500, 0, 100)}${messagesCsv(1000, 9000, 100).split('\n').slice(1).join('\n')}`);
      }
      return runtime.transport(request);
    };
    const core = fakeCore({ 'api-key': KEY, 'base-url': sandbox.url, mode: 'batch', channel: 'email', file: 'data/messages.csv' });
    await run({ core, context: context(RELEASE_EVENT), env: { GITHUB_WORKSPACE: dir, GITHUB_REPOSITORY: 'acme/shop', RUNNER_TEMP: tempDir('runner-') }, runtime: { ...runtime, transport } });
    expect(core.failed).toMatch(/^Input "file": data\/messages\.csv:\d+ changed while the action was reading it/);
    // Whole groups of 1,000 went out before the change was seen, each exactly as checked; no changed row.
    const sent = ledgerRows(sandbox).messages.map((m) => String(m.to));
    expect(core.failed).toContain(` ${sent.length} message(s) were sent before it.`);
    expect([1000, 2000]).toContain(sent.length);
    expect(sent).toEqual(Array.from({ length: sent.length }, (_, i) => `user${i}@example.com`));
    expect(core.outputs.sent).toBe(String(sent.length));
  } finally {
    await dispatcher.close();
  }
});

/** The key of chunk `n` of the whole list, as the action derived it before files were streamed. */
function wholeListKeys(operation: string, context: unknown, items: unknown[], size: number): string[] {
  const keys = actionChunkKeys({ repository: 'acme/shop', runId: '4242', job: 'notify', step: 'notify', operation, context });
  const chunks = Math.ceil(items.length / size);
  return Array.from({ length: chunks }, (_, n) => keys({ chunk: n, offset: n * size, items: items.slice(n * size, (n + 1) * size), chunks }));
}

test.each([
  ['batch', 2600, 500],
  ['sync-contacts', 4500, 1000],
])('%s of %i rows in groups: every row carries the key its chunk of the whole list always had', async (mode, n, size) => {
  const contacts = Array.from({ length: n }, (_, i) => ({ email: `c${i}@example.com`, first_name: `C${i}` }));
  const messages = Array.from({ length: n }, (_, i) => ({ to: `user${i}@example.com`, body: `Hello ${i}` }));
  const file = mode === 'batch' ? messagesCsv(n) : `email,first_name\n${contacts.map((c) => `${c.email},${c.first_name}`).join('\n')}\n`;
  const path = mode === 'batch' ? 'data/messages.csv' : 'data/contacts.csv';
  const r = await runStep({ 'api-key': KEY, 'base-url': sandbox.url, mode, channel: 'email', file: path, 'wait-timeout': '120' }, { files: { [path]: file }, event: RELEASE_EVENT });
  expect(r.code).toBe(0);
  const expected = mode === 'batch' ? wholeListKeys('batch', null, messages.map((m) => ({ channel: 'email', ...m })), size) : wholeListKeys('sync-contacts', { file: path }, contacts, size);
  const doc = JSON.parse(readFileSync(r.outputs['results-file'], 'utf8')) as { results: { index: number; line: number; key: string; status: string }[] };
  expect(doc.results).toHaveLength(n);
  expect(doc.results.map((x) => x.key)).toEqual(Array.from({ length: n }, (_, i) => expected[Math.floor(i / size)]));
  expect(doc.results.map((x) => x.line)).toEqual(Array.from({ length: n }, (_, i) => i + 2));
  expect(r.outputs['idempotency-key']).toBe(expected[0]);
  const ledger = ledgerRows(sandbox);
  expect(mode === 'batch' ? ledger.messages.length : ledger.contacts.length).toBe(n);
}, 120_000);

test.each([
  ['batch', 600, 'data/messages.csv', messagesCsv(600), 'release-42:chunk-0'],
  ['batch', 400, 'data/messages.csv', messagesCsv(400), 'release-42'],
  ['sync-contacts', 2500, 'data/contacts.csv', `email\n${Array.from({ length: 2500 }, (_, i) => `c${i}@example.com`).join('\n')}\n`, 'release-42:chunk-0'],
  ['sync-contacts', 900, 'data/contacts.csv', `email\n${Array.from({ length: 900 }, (_, i) => `c${i}@example.com`).join('\n')}\n`, 'release-42'],
])('%s of %i rows with the idempotency-key input: chunks named as for the whole list', async (mode, rows, path, file, first) => {
  const size = mode === 'batch' ? 500 : 1000;
  for (const dryRun of ['true', 'false']) {
    const r = await runStep({ 'api-key': KEY, 'base-url': sandbox.url, mode, channel: 'email', file: path, 'idempotency-key': 'release-42', 'dry-run': dryRun }, { files: { [path]: file }, event: RELEASE_EVENT });
    expect(r.code).toBe(0);
    expect(r.outputs['idempotency-key']).toBe(first);
    if (dryRun === 'true') continue;
    const doc = JSON.parse(readFileSync(r.outputs['results-file'], 'utf8')) as { results: { key: string }[] };
    const expected = rows > size ? Array.from({ length: rows }, (_, i) => `release-42:chunk-${Math.floor(i / size)}`) : Array.from({ length: rows }, () => 'release-42');
    expect(doc.results.map((x) => x.key)).toEqual(expected);
  }
});

describe('a call refused as a whole in a long file', () => {
  let poor: Sandbox;
  beforeAll(async () => {
    // Credit for two calls of 500: the next two (in flight together, as the client runs two) are refused (402), and the run stops there.
    poor = await start({ port: 0, config: { accounts: [{ id: 'acc_demo', credits: 1000 }] } });
  });
  afterAll(() => poor.close());

  test('every row of the groups after it is not attempted, under its chunk’s key', async () => {
    const n = 2600;
    const r = await runStep({ 'api-key': KEY, 'base-url': poor.url, mode: 'batch', channel: 'email', file: 'data/messages.csv', 'fail-on-error': 'false' }, { files: { 'data/messages.csv': messagesCsv(n) }, event: RELEASE_EVENT });
    expect(r.code).toBe(0);
    const doc = JSON.parse(readFileSync(r.outputs['results-file'], 'utf8')) as { results: { index: number; status: string; key: string; error?: { code: string } }[] };
    expect(doc.results.map((x) => x.status)).toEqual([...Array<string>(1000).fill('sent'), ...Array<string>(1000).fill('failed'), ...Array<string>(600).fill('not_attempted')]);
    const messages = Array.from({ length: n }, (_, i) => ({ channel: 'email', to: `user${i}@example.com`, body: `Hello ${i}` }));
    const expected = wholeListKeys('batch', null, messages, 500);
    expect(doc.results.map((x) => x.key)).toEqual(Array.from({ length: n }, (_, i) => expected[Math.floor(i / 500)]));
    expect(doc.results[2599].error?.code).toBe('insufficient_credits');
    expect([r.outputs.sent, r.outputs.failed, r.outputs['not-attempted']]).toEqual(['1000', '1000', '600']);
  }, 60_000);
});
