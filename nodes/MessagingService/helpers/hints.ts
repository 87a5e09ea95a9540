/**
 * What the editor shows on the node after a run (n8n keeps hints only when the node returns; what a
 * failing node must say goes into its error). Item numbers are the caller's, across the whole input.
 */
import type { IExecuteFunctions, NodeExecutionHint } from 'n8n-workflow';
import type { ItemResult } from '../../../src/index.ts';

/** `0–499, 612, 700–701`: consecutive item numbers as ranges. */
export function itemRanges(rows: readonly number[]): string {
	const sorted = [...rows].sort((a, b) => a - b);
	const parts: string[] = [];
	for (let i = 0; i < sorted.length; ) {
		let j = i;
		while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
		parts.push(i === j ? `${sorted[i]}` : `${sorted[i]}–${sorted[j]}`);
		i = j + 1;
	}
	return parts.join(', ');
}

export function addHint(ctx: IExecuteFunctions, message: string, type: NodeExecutionHint['type'] = 'info'): void {
	if (typeof ctx.addExecutionHints === 'function') ctx.addExecutionHints({ message, type, location: 'outputPane' });
}

/** Rows this node had sent before and did not send again. */
export function sentEarlierHint(count: number, total: number, rows: readonly number[], why: string): string {
	return `${count} of ${total} items were already sent earlier (${why}), not sent again: items ${itemRanges(rows)}. Their output items have "sentEarlier": true.`;
}

/** The store could not say which rows an earlier run sent. */
export function untiedHint(reason: string): string {
	return `Sent messages could not be tied to earlier runs of this node (${reason}). A Retry replays chunks whose content is unchanged, by their keys; a message edited since would be sent again.`;
}

/** Every chunk whose outcome is unknown, with the key that settles it and its items. */
export function unknownChunks(results: readonly ItemResult[], rowOf: (index: number) => number): string {
	const byKey = new Map<string, number[]>();
	for (const result of results) {
		if (result.status !== 'unknown') continue;
		const rows = byKey.get(result.call.idempotencyKey) ?? [];
		rows.push(rowOf(result.index));
		byKey.set(result.call.idempotencyKey, rows);
	}
	return [...byKey].map(([key, rows]) => `${key} (items ${itemRanges(rows)})`).join('; ');
}

/** How n8n settles unknown outcomes: a Retry of the execution (a sub-workflow's: of its parent's). */
export function retrySentence(ctx: IExecuteFunctions): string {
	return ctx.getMode() === 'integrated'
		? 'a Retry of the parent execution runs this sub-workflow again with the same keys'
		: 'a Retry of this execution from the executions list sends with the same keys';
}
