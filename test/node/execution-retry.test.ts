/**
 * n8n's Retry of a failed execution (executions list) is a NEW execution in mode 'retry' started from a
 * copy of the failed run's data. The node's keys follow the original execution (its lineage, carried in
 * custom data), so the retry replays what went out and sends only the rest; a new execution sends again.
 * Run on n8n-core's real engine (test/node/harness.ts retryRun mirrors n8n 2.41.1's ExecutionService.retry).
 */
import { Logger } from '@n8n/backend-common';
import { Container } from '@n8n/di';
import { retryRun, runNode, NODE_NAME } from './harness.ts';
import { batchParameters, credentialsFor, people, startSandbox } from './support.ts';
import type { Sandbox } from '../../sandbox/server.ts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

/** The first chunk (500) goes out; every attempt at the second is refused before commit. */
function failSecondChunk(): void {
	sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'error_500_before_commit', skip: 1, count: 20 });
}

test('a Retry (new execution id, mode retry) of an execution that sent 500 of 1,000 sends only the other 500', async () => {
	failSecondChunk();
	const items = people(1000);
	const options = { parameters: batchParameters, items, credentials: credentialsFor(sb) };
	const failed = await runNode({ ...options, executionId: 'exec-original' });
	expect(failed.error).toBeDefined();
	expect(failed.run.data.resultData.metadata).toEqual({ msgsvc_lineage: 'exec-original' });
	expect(sb.control.summary().messages).toBe(500);

	sb.control.clearFaults();
	const retried = await retryRun(failed.run, { ...options, executionId: 'exec-retry-1' });
	expect(retried.error).toBeUndefined();
	const summary = sb.control.summary();
	expect(summary).toMatchObject({ messages: 1000, duplicates_detected: 0 });
	const out = retried.outputs[0]!;
	expect(out).toHaveLength(1000);
	expect(out.slice(0, 500).every((i) => i.json.replayed === true)).toBe(true);
	expect(out.slice(500).every((i) => i.json.replayed === false)).toBe(true);
	// The retry keeps the lineage, so a retry of it would use the same keys again.
	expect(retried.run.data.resultData.metadata).toEqual({ msgsvc_lineage: 'exec-original' });
	expect(retried.run.data.resultData.runData[NODE_NAME]).toHaveLength(1);
});

test('a retry that carries no lineage falls back to its own id, and so sends again', async () => {
	failSecondChunk();
	const items = people(600);
	const options = { parameters: batchParameters, items, credentials: credentialsFor(sb) };
	const failed = await runNode({ ...options, executionId: 'exec-old-node' });
	delete failed.run.data.resultData.metadata; // as left by a node version that recorded no lineage
	sb.control.clearFaults();
	const retried = await retryRun(failed.run, { ...options, executionId: 'exec-retry-2' });
	expect(retried.error).toBeUndefined();
	expect(sb.control.summary()).toMatchObject({ messages: 1100, duplicates_detected: 500 });
	expect(retried.run.data.resultData.metadata).toEqual({ msgsvc_lineage: 'exec-retry-2' });
});

test('a new execution of the same workflow and items is a new lineage: it sends again', async () => {
	const items = people(300);
	const options = { parameters: batchParameters, items, credentials: credentialsFor(sb) };
	await runNode({ ...options, executionId: 'exec-first' });
	const second = await runNode({ ...options, executionId: 'exec-second' });
	expect(second.outputs[0]!.every((i) => i.json.replayed === false)).toBe(true);
	expect(sb.control.summary().messages).toBe(600);
});

test('custom data already full (10 keys): the lineage cannot be recorded, the node warns, and a Retry sends again', async () => {
	const warn = jest.spyOn(Container.get(Logger), 'warn');
	try {
		failSecondChunk();
		const items = people(600);
		const seedCustomData = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`other_${i}`, String(i)]));
		const options = { parameters: batchParameters, items, credentials: credentialsFor(sb), seedCustomData };
		const failed = await runNode({ ...options, executionId: 'exec-full' });
		expect(Object.keys(failed.run.data.resultData.metadata ?? {})).not.toContain('msgsvc_lineage');
		expect(warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('could not record "msgsvc_lineage"'))).toHaveLength(1);
		sb.control.clearFaults();
		await retryRun(failed.run, { ...options, executionId: 'exec-full-retry' });
		expect(warn.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('carries no "msgsvc_lineage"'))).toHaveLength(1);
		expect(sb.control.summary()).toMatchObject({ messages: 1100, duplicates_detected: 500 });
	} finally {
		warn.mockRestore();
	}
});
