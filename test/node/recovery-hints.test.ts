/**
 * What the node tells the user about unknown outcomes: every unknown chunk's key with its items
 * (numbered across the whole input), and how n8n settles them — inside a sub-workflow, by a Retry of
 * the parent. n8n-core's engine, real HTTP, n8n's deduplication service over dedup-store.ts.
 */
import { runNode } from './harness.ts';
import { useDedupStore } from './dedup-store.ts';
import { useSandbox } from '../sandbox/helpers.ts';
import { batchParameters, credentialsFor, people } from './support.ts';

// One sandbox and one store for the file, both emptied before each test.
const sb = useSandbox({ job_rows_per_second: 5000 });
useDedupStore();

/** Both chunks of 1,000 items go out at once (two lanes) and every attempt is reset after commit. */
function bothChunksUnknown(): void {
	sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'reset_after_commit', count: 100 });
}

test('two unknown chunks: the hint names both keys with their items; a Retry replays both, nothing twice', async () => {
	bothChunksUnknown();
	const options = { parameters: batchParameters, items: people(1000), credentials: credentialsFor(sb), trigger: { ts: 5 }, onError: 'continueErrorOutput' as const };
	const first = await runNode(options);
	const keys = [...new Set(first.outputs[1]!.map((i) => (i.json.details as { idempotencyKey: string }).idempotencyKey))];
	expect(keys).toHaveLength(2);
	const hint = first.hints.find((h) => h.startsWith('Outcome unknown'))!;
	expect(hint).toContain(`${keys[0]} (items 0–499)`);
	expect(hint).toContain(`${keys[1]} (items 500–999)`);
	expect(hint).toContain('a Retry of this execution from the executions list sends with the same keys');

	sb.control.clearFaults();
	const again = await runNode({ ...options, mode: 'retry' });
	expect(again.outputs[0]!.every((i) => i.json.replayed === true)).toBe(true);
	expect(sb.control.summary()).toMatchObject({ messages: 1000, duplicates_detected: 0 });
});

test('in a sub-workflow (mode integrated) the node error sends the user to the parent\'s Retry, with every unknown key', async () => {
	bothChunksUnknown();
	const { error } = await runNode({ parameters: batchParameters, items: people(1000), credentials: credentialsFor(sb), trigger: { ts: 6 }, mode: 'integrated' });
	const description = String(error?.description);
	expect(description).toContain('a Retry of the parent execution runs this sub-workflow again with the same keys');
	expect(description).not.toContain('a Retry of this execution');
	expect(description.match(/n8n-[0-9a-f]{48} \(items \d+–\d+\)/g)).toHaveLength(2);
});
