/**
 * Send with keys derived from the run records groups of 500 rows in n8n's store, not rows: the record
 * stays small however many items go (n8n rewrites it whole and removes by linear search on every write),
 * and a retry still sends exactly what no earlier run committed. n8n-core's engine, real HTTP, n8n's
 * deduplication service over the in-memory port of its store (dedup-store.ts).
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { runNode } from './harness.ts';
import { useDedupStore } from './dedup-store.ts';
import { useSandbox } from '../sandbox/helpers.ts';
import { batchParameters, credentialsFor, people } from './support.ts';

const sb = useSandbox({ job_rows_per_second: 5000 });
const store = useDedupStore();

test('a 5,000-item send holds one marker per group of 500 while it runs and one marker after it', async () => {
	const options = { parameters: batchParameters, items: people(5000), credentials: credentialsFor(sb), trigger: { ts: 11 } };
	const sent = await runNode(options);
	expect(sent.error).toBeUndefined();
	expect(sb.control.summary().messages).toBe(5000);
	// The check writes the attempt and a pending marker per group (10 groups); markers per row would have
	// been 10,001.
	expect(store.peakEntries).toBeLessThanOrEqual(11);
	expect(store.size().entries).toBe(1);
	const again = await runNode({ ...options, mode: 'retry' });
	expect(again.outputs[0]!.every((i) => i.json.sentEarlier === true)).toBe(true);
	expect(sb.control.summary()).toMatchObject({ messages: 5000, duplicates_detected: 0 });
});

test('a row the service refused and a group committed but never recorded (n8n died): the retry replays the group and sends only the corrected row', async () => {
	const options = { items: people(1500), credentials: credentialsFor(sb), trigger: { ts: 12 }, onError: 'continueErrorOutput' as const };
	const broken = { ...batchParameters, to: '={{ $json.n === 3 ? "not-an-address" : $json.email }}' };
	// Group 2's record fails, as if n8n died after the service committed it (groups 0 and 1 are recorded).
	store.failRemovesOf = (value) => value.startsWith('p:') && value.endsWith(':2');
	const first = await runNode({ ...options, parameters: broken });
	expect(first.outputs[1]!).toHaveLength(1);
	expect(sb.control.summary().messages).toBe(1499);

	store.failRemovesOf = undefined;
	const fixed = await runNode({ ...options, parameters: batchParameters, mode: 'retry' });
	expect(fixed.error).toBeUndefined();
	const out = fixed.outputs[0]!;
	expect(out.filter((i) => i.json.sentEarlier === true)).toHaveLength(999);
	// Group 2 (rows 1000–1499) goes again in the same chunk, under the same key: the service replays it.
	expect(out.filter((i) => i.json.replayed === true)).toHaveLength(500);
	expect(out.find((i) => i.json.to === 'user3@example.com')!.json).toMatchObject({ id: expect.any(String), replayed: false });
	expect(sb.control.summary()).toMatchObject({ messages: 1500, duplicates_detected: 0 });
	expect(ledgerRows(sb).messages.filter((m) => m.to === 'user3@example.com')).toHaveLength(1);
});
