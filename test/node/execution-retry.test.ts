/**
 * n8n's recoveries of a failed or crashed run are all NEW executions that replay the DATA the run
 * started from: a Retry copies the run data (the seed's output is the same), a crashed webhook's Retry
 * and "Debug in editor" run from the stored or pinned trigger output, a sub-workflow's child gets its
 * parent's items again, a second manual run has the Manual Trigger's `{}` again. Here each recovery is
 * run as what the node sees of it — a new execution id, n8n's mode for it, the same trigger data — on
 * n8n-core's real engine over real HTTP, with n8n's deduplication service backed by an in-memory port of
 * n8n's database store (dedup-store.ts). n8n's own Retry (ExecutionService.retry, the REST call, the
 * real store, a killed process) is proven by test/e2e/n8n.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { runNode, runNodeAfterCrashRecovery } from './harness.ts';
import { useDedupStore } from './dedup-store.ts';
import { useSandbox } from '../sandbox/helpers.ts';
import { batchParameters, credentialsFor, people } from './support.ts';

// One sandbox and one store for the file, both emptied before each test.
const sb = useSandbox({ job_rows_per_second: 5000 });
const store = useDedupStore();

/** The first chunk (500) goes out; every attempt at the second is refused before commit. */
function failSecondChunk(): void {
	sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'error_500_before_commit', skip: 1, count: 20 });
}

function messagesTo(address: string): string[] {
	return ledgerRows(sb).messages.filter((m) => m.to === address).map((m) => m.body);
}

test.each([
	['Retry (run data copied)', 'retry'],
	['Retry of a crashed webhook execution (trigger data stored)', 'webhook'],
	['Debug in editor / a second manual run (trigger data pinned or the same)', 'manual'],
	['sub-workflow child started again by its parent', 'integrated'],
] as const)('%s: a run that sent 500 of 1,000 is completed, the 500 reported sent earlier', async (_name, mode) => {
	failSecondChunk();
	const options = { parameters: batchParameters, items: people(1000), credentials: credentialsFor(sb), trigger: { body: { campaign: 7 } } };
	const failed = await runNode({ ...options, executionId: 'exec-1', mode });
	expect(failed.error).toBeDefined();
	expect(sb.control.summary().messages).toBe(500);

	sb.control.clearFaults();
	const again = await runNode({ ...options, executionId: 'exec-2', mode });
	expect(again.error).toBeUndefined();
	expect(sb.control.summary()).toMatchObject({ messages: 1000, duplicates_detected: 0 });
	const out = again.outputs[0]!;
	expect(out).toHaveLength(1000);
	expect(out.slice(0, 500).every((i) => i.json.sentEarlier === true && i.json.id === undefined)).toBe(true);
	expect(out[0]!.json).toEqual({ sentEarlier: true, channel: 'email', to: 'user0@example.com' });
	expect(out.slice(500).every((i) => typeof i.json.id === 'string' && i.json.sentEarlier === undefined)).toBe(true);
	expect(again.hints.join('\n')).toContain('500 of 1000 items were already sent earlier');
	expect(again.hints.join('\n')).toContain('items 0–499');
});

test('n8n dies after the service committed, before the node recorded it: the same chunks go again under the same keys and are replayed', async () => {
	store.failRemoves = true; // nothing gets recorded as sent: as when the process is killed mid-node
	const options = { parameters: batchParameters, items: people(1200), credentials: credentialsFor(sb), trigger: { ts: 1 } };
	await runNode({ ...options, executionId: 'exec-crash' });
	expect(sb.control.summary().messages).toBe(1200);
	store.failRemoves = false;
	const again = await runNode({ ...options, executionId: 'exec-crash-retry', mode: 'retry' });
	expect(sb.control.summary()).toMatchObject({ messages: 1200, duplicates_detected: 0 });
	expect(again.outputs[0]!.every((i) => i.json.replayed === true)).toBe(true);
});

test("a crashed webhook execution's Retry after n8n's crash recovery: the roots' placeholder runs are skipped, the 500 sent are not sent again", async () => {
	failSecondChunk();
	const options = { parameters: batchParameters, items: people(1000), credentials: credentialsFor(sb), trigger: { body: { campaign: 9 } } };
	const crashed = await runNode({ ...options, executionId: 'exec-webhook', mode: 'webhook' });
	expect(crashed.error).toBeDefined();
	expect(sb.control.summary().messages).toBe(500);

	sb.control.clearFaults();
	const retried = await runNodeAfterCrashRecovery({ ...options, executionId: 'exec-webhook-retry' });
	// The placeholder really was the root's first run in the retry: the lineage had to look past it.
	expect(retried.run.data.resultData.runData.Trigger?.[0]?.data?.main[0]?.[0]?.json).toEqual({ isArtificialRecoveredEventItem: true });
	expect(retried.error).toBeUndefined();
	expect(sb.control.summary()).toMatchObject({ messages: 1000, duplicates_detected: 0 });
	expect(retried.outputs[0]!.slice(0, 500).every((i) => i.json.sentEarlier === true)).toBe(true);
});

test('body edited after a failure, then run again: rows already sent are not sent again, the rest go with the new text', async () => {
	failSecondChunk();
	const options = { items: people(1000), credentials: credentialsFor(sb), trigger: { body: { campaign: 8 } } };
	await runNode({ ...options, parameters: batchParameters, executionId: 'exec-edit-1' });
	sb.control.clearFaults();
	const edited = { ...batchParameters, body: '=Corrected body for {{ $json.n }}' };
	const again = await runNode({ ...options, parameters: edited, executionId: 'exec-edit-2', mode: 'retry' });
	expect(again.error).toBeUndefined();
	expect(sb.control.summary().messages).toBe(1000);
	expect(messagesTo('user10@example.com')).toEqual(['Body for 10']);
	expect(messagesTo('user900@example.com')).toEqual(['Corrected body for 900']);
	expect(again.outputs[0]!.filter((i) => i.json.sentEarlier === true)).toHaveLength(500);
});

test('a new schedule tick sends again; the same tick delivered twice does not', async () => {
	const options = { parameters: batchParameters, items: people(300), credentials: credentialsFor(sb) };
	await runNode({ ...options, trigger: { timestamp: '2026-11-27T08:00:00Z' }, mode: 'trigger' });
	await runNode({ ...options, trigger: { timestamp: '2026-11-27T08:00:00Z' }, mode: 'trigger' });
	expect(sb.control.summary().messages).toBe(300);
	const next = await runNode({ ...options, trigger: { timestamp: '2026-11-28T08:00:00Z' }, mode: 'trigger' });
	expect(next.outputs[0]!.every((i) => typeof i.json.id === 'string' && i.json.replayed === false)).toBe(true);
	expect(sb.control.summary().messages).toBe(600);
});

test('Manual Trigger ({} each time): a second run with other items from upstream sends them; with the same items it sends nothing', async () => {
	const manual = { parameters: batchParameters, credentials: credentialsFor(sb), trigger: {} };
	await runNode({ ...manual, items: people(200) });
	const same = await runNode({ ...manual, items: people(200) });
	expect(same.outputs[0]!.every((i) => i.json.sentEarlier === true)).toBe(true);
	const other = await runNode({ ...manual, items: people(200, 1000) });
	expect(other.outputs[0]!.every((i) => typeof i.json.id === 'string')).toBe(true);
	expect(sb.control.summary()).toMatchObject({ messages: 400, duplicates_detected: 0 });
});

test('without n8n\'s store (older n8n, the bare engine): keys alone replay unchanged chunks, and a hint says rows could not be tied', async () => {
	store.enabled = false;
	const options = { parameters: batchParameters, items: people(600), credentials: credentialsFor(sb), trigger: { ts: 3 } };
	const first = await runNode(options);
	expect(first.hints.join('\n')).toContain('could not be tied');
	const again = await runNode({ ...options, mode: 'retry' });
	expect(again.outputs[0]!.every((i) => i.json.replayed === true)).toBe(true);
	expect(sb.control.summary().messages).toBe(600);
});

test('a row the service refused is not "sent earlier": fixed in the node and run again, only it goes out', async () => {
	const options = { items: people(600), credentials: credentialsFor(sb), trigger: { ts: 4 }, onError: 'continueErrorOutput' as const };
	const broken = { ...batchParameters, to: '={{ $json.n === 3 ? "not-an-address" : $json.email }}' };
	const first = await runNode({ ...options, parameters: broken });
	expect(first.outputs[1]!).toHaveLength(1);
	const fixed = await runNode({ ...options, parameters: batchParameters, mode: 'retry' });
	const out = fixed.outputs[0]!;
	expect(out.filter((i) => i.json.sentEarlier === true)).toHaveLength(599);
	expect(out.find((i) => i.json.to === 'user3@example.com')!.json).toMatchObject({ id: expect.any(String), replayed: false });
	expect(sb.control.summary()).toMatchObject({ messages: 600, duplicates_detected: 0 });
});

test('Send to 250 recipients failing after the first 100, edited, run again: the 100 are sent earlier, the 150 get the new text', async () => {
	sb.control.addFault({ route: 'POST /v1/messages', kind: 'error_500_before_commit', skip: 1, count: 20 });
	const recipients = people(250).map((p) => p.email);
	const send = { resource: 'message', operation: 'send', channel: 'email', to: '={{ $json.to }}', subject: 'News', body: 'First text' };
	const options = { items: [{ to: recipients }], credentials: credentialsFor(sb), trigger: { ts: 7 } };
	const failed = await runNode({ ...options, parameters: send });
	expect(failed.error).toBeDefined();
	expect(sb.control.summary().messages).toBe(100);
	sb.control.clearFaults();
	const again = await runNode({ ...options, parameters: { ...send, body: 'Second text' }, mode: 'retry' });
	expect(again.error).toBeUndefined();
	const out = again.outputs[0]!;
	expect(out.map((i) => i.json.to)).toEqual(recipients);
	expect(out.slice(0, 100).every((i) => i.json.sentEarlier === true)).toBe(true);
	expect(out.slice(100).every((i) => typeof i.json.id === 'string')).toBe(true);
	expect(again.hints.join('\n')).toContain('100 recipients were already sent earlier');
	expect(messagesTo(recipients[0]!)).toEqual(['First text']);
	expect(messagesTo(recipients[249]!)).toEqual(['Second text']);
	expect(sb.control.summary().messages).toBe(250);
});
