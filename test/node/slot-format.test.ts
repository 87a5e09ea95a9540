/**
 * A row's store slot is a marker name that outlives the package version: a retry run by a newer version
 * must find the markers an older one wrote. So the slot is pinned to its documented form, the SHA-256 of
 * canonicalJson([lineage id, node id, run index, operation, row, input]), however it is computed.
 */
import { createHash } from 'node:crypto';
import type { IExecuteFunctions } from 'n8n-workflow';
import { rowKeys } from '../../nodes/MessagingService/helpers/idempotency.ts';
import { canonicalJson, sha256Hex } from '../../src/index.ts';

const digest = (text: string) => createHash('sha256').update(text).digest('hex');

function context(runIndex: number): IExecuteFunctions {
	return {
		getWorkflowDataProxy: () => ({ $runIndex: runIndex }),
		getWorkflow: () => ({ id: 'wf-1' }),
		getNode: () => ({ id: 'node-1', name: 'Send' }),
		getParentNodes: () => [],
		getExecutionId: () => 'exec-1',
	} as unknown as IExecuteFunctions;
}

test('sha256Hex is SHA-256 of the UTF-8 text, in hex', () => {
	for (const text of ['', 'abc', 'Grüße, 東京 😀', '"quoted"\n\u2028']) expect(sha256Hex(text)).toBe(digest(text));
});

test('a derived slot is the hash of the canonical tuple, for every row and input', () => {
	const inputs: unknown[] = [{ to: 'a@example.com', body: 'Hi' }, { body: 'x', to: 'b', nested: { z: 1, a: [1, null] } }, undefined, 'Grüße 😀'];
	for (const runIndex of [0, 3]) {
		const keys = rowKeys(context(runIndex), 'message.sendBatch', [0, 1, 2, 3], (row) => inputs[row], () => '', 500);
		if (keys.mode !== 'derived') throw new Error(`expected derived keys, got ${keys.mode}`);
		const lineageId = digest(canonicalJson({ workflowId: 'wf-1', execution: 'exec-1' }));
		for (let row = 0; row < inputs.length; row++) {
			expect(keys.slotOf(row)).toBe(digest(canonicalJson([lineageId, 'node-1', runIndex, 'message.sendBatch', row, inputs[row] ?? null])));
		}
	}
});
