/**
 * Which rows this node already sent, in n8n's deduplication store (the Remove Duplicates node's:
 * `helpers.checkProcessedAndRecord` / `removeProcessed`, in n8n's own database, written at once, shared
 * by queue-mode workers; scope `node`). It only offers check-AND-record, so a row carries two markers:
 * - `a:<slot>` attempted — recorded before the row is first sent, kept;
 * - `p:<slot>` pending   — recorded with it, removed only after the service committed the row.
 * One check-and-record of both markers of every row then tells the three states apart: never attempted
 * (a new), attempted but not known sent (a and p seen: send again, with the key that replays it), sent
 * (a seen, p new: skip; the p marker the check just wrote is removed at once). A row the service refused
 * loses both markers, so a corrected retry sends it. Keys derived from the run (not the user's) use one
 * `a:` marker for the run's whole set of rows instead (see `openSentRows`): n8n removes a marker by a
 * linear search of the node's whole record, so the record must stay small.
 *
 * Nothing is marked sent before the service committed it. If n8n dies between the commit and the
 * record, the row is still pending: the retry sends its chunk again with the same deterministic key
 * and the service replays it. If n8n dies between a retry's check and its removal of a sent row's new
 * p marker, that row is sent again under its deterministic key: replayed, unless its content was also
 * edited (the one case left to the keys alone).
 *
 * Bounded: n8n keeps the last STORE_MAX_ENTRIES markers per node and drops the oldest. A row whose
 * markers were dropped reads "never attempted": it is sent under its deterministic key, and the service
 * replays an unchanged one (for its idempotency retention). Dropping never makes a row read "sent":
 * markers are written attempted-first, so the oldest to go is always an `a:` before its `p:` markers.
 * A run of more rows than the bound (n8n keeps the last 50,000 of one write) loses its own `a:` marker
 * at once; its retry then rests on the deterministic keys alone, as above. Do not move the `a:` marker
 * last: the dropped `p:` markers would then make never-sent rows read "sent".
 */
import type { IExecuteFunctions } from 'n8n-workflow';

/** Markers kept per node: a sent row holds one (27 bytes in n8n's JSON column), a pending row two. */
export const STORE_MAX_ENTRIES = 50_000;

const OPTIONS = { mode: 'entries', maxEntries: STORE_MAX_ENTRIES } as const;

type Values = Array<string | number>;

interface DedupHelpers {
	checkProcessedAndRecord?: (values: Values, scope: 'node' | 'workflow', options: typeof OPTIONS) => Promise<{ new: Values; processed: Values }>;
	removeProcessed?: (values: Values, scope: 'node' | 'workflow', options: typeof OPTIONS) => Promise<void>;
}

export interface SentRows {
	/** False when the store is absent or failed: rows cannot be tied to earlier runs. */
	readonly tied: boolean;
	/** Why the store could not be used (for the hint). */
	readonly reason?: string;
	/** The rows (caller's index) sent by an earlier run. */
	readonly sentEarlier: ReadonlySet<number>;
	/** The rows an earlier run attempted without a known commit (their chunk may have gone out). */
	readonly pendingEarlier: ReadonlySet<number>;
	/** The service committed these rows (their p markers go). Queued; `settle` waits for it. */
	committed(rows: readonly number[]): void;
	/** The service refused these rows: both markers go, so a corrected retry sends them. */
	refused(rows: readonly number[]): void;
	/** Waits for the queued writes; the first write that failed, if any. */
	settle(): Promise<string | undefined>;
}

const attempted = (slot: string) => `a:${slot}`;
const pending = (slot: string) => `p:${slot}`;

function message(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

function untied(reason: string): SentRows {
	return { tied: false, reason, sentEarlier: new Set(), pendingEarlier: new Set(), committed() {}, refused() {}, settle: async () => undefined };
}

/**
 * Checks the rows' slots (one per row to send; `slots[i]` belongs to `rows[i]`) and marks the ones not
 * yet sent as attempted and pending. Call right before sending. With `attempt` (a marker naming this
 * exact set of rows, e.g. a hash of all their slots), that one marker stands for every row's `a:`
 * marker: the store then holds one marker per node run plus the rows still pending, instead of one per
 * row ever sent.
 */
export async function openSentRows(ctx: IExecuteFunctions, rows: readonly number[], slots: readonly string[], attempt?: string): Promise<SentRows> {
	const helpers = ctx.helpers as unknown as DedupHelpers;
	const check = helpers.checkProcessedAndRecord;
	const remove = helpers.removeProcessed;
	if (typeof check !== 'function' || typeof remove !== 'function') return untied('this n8n has no deduplication store');
	const slotOf = new Map(rows.map((row, i) => [row, slots[i]!]));
	const attemptedValues = (list: readonly number[]) => (attempt === undefined ? list.map((row) => attempted(slotOf.get(row)!)) : []);
	let seen: Set<string>;
	try {
		const values = attempt === undefined ? slots.flatMap((slot) => [attempted(slot), pending(slot)]) : [attempted(attempt), ...slots.map(pending)];
		const answer = await check.call(ctx.helpers, values, 'node', OPTIONS);
		seen = new Set(answer.processed.map(String));
	} catch (error) {
		return untied(`n8n's deduplication store failed: ${message(error)}`);
	}
	const wasAttempted = attempt === undefined ? rows.filter((row) => seen.has(attempted(slotOf.get(row)!))) : seen.has(attempted(attempt)) ? [...rows] : [];
	const sentEarlier = new Set(wasAttempted.filter((row) => !seen.has(pending(slotOf.get(row)!))));
	const pendingEarlier = new Set(wasAttempted.filter((row) => !sentEarlier.has(row)));
	let queue: Promise<void> = Promise.resolve();
	let failure: string | undefined;
	const write = (values: string[], add = false) => {
		if (values.length === 0) return;
		queue = queue.then(async () => {
			try {
				if (add) await check.call(ctx.helpers, values, 'node', OPTIONS);
				else await remove.call(ctx.helpers, values, 'node', OPTIONS);
			} catch (error) {
				failure ??= `n8n's deduplication store failed: ${message(error)}`;
			}
		});
	};
	// The check just marked the sent rows pending again: undo that before anything goes out.
	write([...sentEarlier].map((row) => pending(slotOf.get(row)!)));
	return {
		tied: true,
		sentEarlier,
		pendingEarlier,
		committed: (done) => write(done.map((row) => pending(slotOf.get(row)!))),
		// A refused row's chunk was committed, so its p marker went with it. With one attempt marker the row
		// is made pending again (sent next time); otherwise it is forgotten (never attempted).
		refused: (done) =>
			attempt === undefined
				? write([...attemptedValues(done), ...done.map((row) => pending(slotOf.get(row)!))])
				: write(done.map((row) => pending(slotOf.get(row)!)), true),
		settle: async () => {
			await queue;
			return failure;
		},
	};
}
