/**
 * Results the node cannot vouch for: a chunk whose every attempt may have committed (connection reset
 * after commit) is `unknown`, not `failed`. Its items leave by the error output with the key that settles
 * them; sending them again with that key replays or completes, never twice. Real HTTP to the sandbox,
 * n8n-core's real engine.
 */
import { UNKNOWN_OUTCOME_REMEDY } from '../../src/index.ts';
import { runNode } from './harness.ts';
import { batchParameters, credentialsFor, isRoutableErrorJson, pairedIndex, people, startSandbox } from './support.ts';
import type { Sandbox } from '../../sandbox/server.ts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

function people700WithOneInvalid(): ReturnType<typeof people> {
	const items = people(700);
	items[3]!.email = 'not-an-address';
	return items;
}

test('Send Batch with the error output: unknown and failed told apart, each with its key; a re-send with the key sends nothing twice', async () => {
	sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'reset_after_commit', skip: 1, count: 10 });
	const items = people700WithOneInvalid();
	const { outputs, error } = await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb), onError: 'continueErrorOutput', executionId: 'exec-unknown' });
	expect(error).toBeUndefined();
	const [sent, errors] = [outputs[0]!, outputs[1]!];
	expect(sent).toHaveLength(499);
	const failed = errors.filter((i) => (i.json.details as Record<string, unknown>).outcome === 'failed');
	const unknown = errors.filter((i) => (i.json.details as Record<string, unknown>).outcome === 'unknown');
	expect(failed.map(pairedIndex)).toEqual([3]);
	expect(unknown.map(pairedIndex)).toEqual(items.slice(500).map((_, i) => 500 + i));
	expect(errors.every((i) => isRoutableErrorJson(i.json, ['email', 'name', 'n']))).toBe(true);
	const details = unknown[0]!.json.details as Record<string, unknown>;
	expect(details).toMatchObject({ outcome: 'unknown', chunk: 1, remedy: UNKNOWN_OUTCOME_REMEDY, idempotencyKey: expect.stringMatching(/^n8n-[0-9a-f]{48}$/) });
	expect(unknown[0]!.json.error).toMatch(/^Outcome unknown: transport_error: /);
	expect(unknown[0]!.json.message).toContain(`${UNKNOWN_OUTCOME_REMEDY} Idempotency key: ${details.idempotencyKey}.`);
	expect(unknown[0]!.json.message).toMatch(/ — item 500$/);
	expect(failed[0]!.json.error).toMatch(/^validation_failed: /);
	expect(new Set(unknown.map((i) => (i.json.details as Record<string, unknown>).idempotencyKey))).toEqual(new Set([details.idempotencyKey]));
	expect((failed[0]!.json.details as Record<string, unknown>).remedy).not.toBe(UNKNOWN_OUTCOME_REMEDY);
	// The sandbox did commit the chunk: 699 delivered, though the node could not know it.
	expect(sb.control.summary()).toMatchObject({ messages: 699, duplicates_detected: 0 });

	// The remedy: the same items again, with the key from details — replayed, nothing sent twice.
	sb.control.clearFaults();
	const again = await runNode({
		parameters: { ...batchParameters, options: { idempotencyKey: details.idempotencyKey as string } },
		items: items.slice(500),
		credentials: credentialsFor(sb),
		executionId: 'exec-resend',
	});
	expect(again.error).toBeUndefined();
	expect(again.outputs[0]!.every((i) => i.json.replayed === true)).toBe(true);
	expect(sb.control.summary()).toMatchObject({ messages: 699, duplicates_detected: 0 });
});

test('Send Batch without continue-on-fail: the node error says what is unknown in the shared one-line outcome and how n8n settles it', async () => {
	sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'reset_after_commit', skip: 1, count: 10 });
	const { error } = await runNode({ parameters: batchParameters, items: people(700), credentials: credentialsFor(sb) });
	expect(error?.message).toMatch(/^Outcome unknown: transport_error: /);
	const description = String(error?.description);
	expect(description).toContain('700 messages: 500 sent, 200 unknown (send again with the same keys: it replays or completes, never twice)');
	expect(description).toContain('a Retry of this execution from the executions list sends with the same keys');
	expect(description).toContain(UNKNOWN_OUTCOME_REMEDY);
	expect(description).toMatch(/Idempotency key: n8n-[0-9a-f]{48}\./);
});
