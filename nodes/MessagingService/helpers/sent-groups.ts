/**
 * Which rows of a run this node already sent, when keys derive from the run (no Idempotency Key): the
 * run's exact rows are one attempt (`attempt`, a hash of every row's slot), so the store records groups
 * of them instead of rows. A group is `groupSize` consecutive rows, the client's count per call: every
 * chunk the client makes lies inside one group, so a group is committed when all its chunks are.
 * Markers in n8n's store (marker-store.ts), for a run of N rows about N / groupSize + 1 at most:
 * - `a:<attempt>`   attempted — recorded before the first row is sent, kept;
 * - `p:<attempt>:g` pending   — recorded with it, removed once every row of group g is committed;
 * - `r:<attempt>:g` group g has rows the service refused, each marked `p:<row slot>` until committed.
 * (n8n removes a marker by a linear search of the node's whole record: markers per row made a 100,000-row
 * send spend most of its time there.)
 *
 * A retry of the same rows sends the pending groups first, whole and in order, so each goes out in the
 * same chunks under the same keys and the service replays what an earlier run committed unrecorded;
 * then the refused rows, in chunks of their own (so a corrected row gets a new key). A new run (a not
 * there) sends every row, after one check of the attempt and group markers. Checking records whatever
 * was missing, so a group's p and r markers a retry's checks wrote for a committed group are removed at once (if n8n dies before that, the group goes again under
 * its same keys: replayed, unless its content was also edited, as for rows in sent-rows.ts).
 *
 * Nothing is marked sent before the service committed it. If n8n dies between the commit and the
 * record, the group is still pending and goes again under the same keys: replayed. Bounded as
 * sent-rows.ts says: n8n drops the oldest markers first, and `a:` is a run's oldest, so dropping makes a
 * run read "never attempted" (sent again under the same keys), never "sent".
 */
import type { IExecuteFunctions } from 'n8n-workflow';
import { markerStore, storeFailure } from './marker-store.ts';
import { untiedRows } from './sent-rows.ts';
import type { SentRows } from './sent-rows.ts';

/**
 * Checks the run's groups (`slots[i]` belongs to `rows[i]`, `attempt` names exactly these rows in this
 * order) and marks a new run attempted and every group pending. Call right before sending.
 */
export async function openSentGroups(ctx: IExecuteFunctions, rows: readonly number[], slots: readonly string[], attempt: string, groupSize: number): Promise<SentRows> {
	const store = markerStore(ctx);
	if (typeof store === 'string') return untiedRows(rows, store);
	const groups = Array.from({ length: Math.ceil(rows.length / groupSize) }, (_, g) => rows.slice(g * groupSize, (g + 1) * groupSize));
	// Each row's place in `rows`, by row: a typed array, not a Map (a 100,000-row send holds it throughout).
	const placeOf = new Int32Array(rows.reduce((max, row) => Math.max(max, row), -1) + 1);
	rows.forEach((row, i) => (placeOf[row] = i));
	const groupOf = (row: number) => Math.floor(placeOf[row]! / groupSize);
	const pendingGroup = (g: number) => `p:${attempt}:${g}`;
	const refusedIn = (g: number) => `r:${attempt}:${g}`;
	const pendingRow = (row: number) => `p:${slots[placeOf[row]!]!}`;
	const indexes = groups.map((_, g) => g);

	let seen: Set<string>;
	const unmarked: string[] = []; // what the checks recorded that does not hold: removed before sending
	const refusedEarlier = new Set<number>();
	let open: number[]; // the groups to send whole
	try {
		seen = await store.check([`a:${attempt}`, ...indexes.map(pendingGroup)]);
		if (!seen.has(`a:${attempt}`)) open = indexes;
		else {
			open = indexes.filter((g) => seen.has(pendingGroup(g)));
			const done = indexes.filter((g) => !seen.has(pendingGroup(g)));
			unmarked.push(...done.map(pendingGroup));
			// Refusal flags are checked for committed groups only, so a pending group never carries one.
			const flags = done.length > 0 ? await store.check(done.map(refusedIn)) : new Set<string>();
			unmarked.push(...done.filter((g) => !flags.has(refusedIn(g))).map(refusedIn));
			const flagged = done.filter((g) => flags.has(refusedIn(g))).flatMap((g) => groups[g]!);
			if (flagged.length > 0) {
				const rowsSeen = await store.check(flagged.map(pendingRow));
				for (const row of flagged) {
					if (rowsSeen.has(pendingRow(row))) refusedEarlier.add(row);
					else unmarked.push(pendingRow(row));
				}
			}
		}
	} catch (error) {
		return untiedRows(rows, storeFailure(error));
	}
	store.write(unmarked, 'remove');

	const sentWhole = new Set(open);
	const wholeRows = open.flatMap((g) => groups[g]!);
	const sentEarlier = new Set(rows.filter((row) => !sentWhole.has(groupOf(row)) && !refusedEarlier.has(row)));
	const left = new Map(open.map((g) => [g, groups[g]!.length]));
	const retried = [...refusedEarlier]; // found group by group: in the rows' order
	return {
		tied: true,
		sentEarlier,
		batches: [wholeRows, retried].filter((batch) => batch.length > 0),
		committed(done) {
			const values: string[] = [];
			for (const row of done) {
				if (refusedEarlier.has(row)) {
					values.push(pendingRow(row));
					continue;
				}
				const g = groupOf(row);
				const count = left.get(g)! - 1;
				left.set(g, count);
				if (count === 0) values.push(pendingGroup(g));
			}
			store.write(values, 'remove');
		},
		// A refused row of a committed group (its p marker went with it) is marked on its own; a group
		// not committed stays pending whole.
		refused(done) {
			const marked = done.filter((row) => refusedEarlier.has(row) || left.get(groupOf(row)) === 0);
			store.write([...new Set(marked.map((row) => refusedIn(groupOf(row)))), ...marked.map(pendingRow)], 'add');
		},
		settle: () => store.settle(),
	};
}
