/** Rate-limit pacing and Retry-After honoured inside the node, with the user's maximum wait. */
import { runNode } from './harness.ts';
import { batchParameters, credentialsFor, pairedIndex, people, startSandbox, shownError } from './support.ts';

test('a 429 storm under a low rate window: every item is still sent exactly once', async () => {
	const sb = await startSandbox({ window_seconds: 1, accounts: [{ id: 'acc_rate_limited', rate_limit: 2 }] });
	try {
		sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'rate_limit_429', count: 5 });
		const items = people(2400);
		const started = Date.now();
		const { outputs, error } = await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb, 'sk_test_demo_rate_limited') });
		const elapsed = Date.now() - started;
		expect(error).toBeUndefined();
		expect(outputs[0]!.map(pairedIndex)).toEqual(items.map((_, i) => i));
		const summary = sb.control.summary();
		expect(summary).toMatchObject({ messages: 2400, duplicates_detected: 0 });
		expect(sb.control.faults()[0]).toMatchObject({ fired: 5 });
		// 5 calls + 5 injected 429s at 2 calls per 1 s window: some waiting, but bounded.
		expect(elapsed).toBeGreaterThan(1000);
		expect(elapsed).toBeLessThan(20000);
	} finally {
		await sb.close();
	}
});

test('per-item Send under a 2-per-second ceiling paces itself instead of failing', async () => {
	const sb = await startSandbox({ window_seconds: 1, accounts: [{ id: 'acc_rate_limited', rate_limit: 2 }] });
	try {
		const items = people(7);
		const { outputs, error } = await runNode({
			parameters: { resource: 'message', operation: 'send', channel: 'email', to: '={{ $json.email }}', subject: 'Hi', body: 'x' },
			items,
			credentials: credentialsFor(sb, 'sk_test_demo_rate_limited'),
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(7);
		expect(sb.control.summary()).toMatchObject({ messages: 7, duplicates_detected: 0 });
	} finally {
		await sb.close();
	}
});

test('a Retry-After beyond "Max Rate-Limit Wait" stops at once with rate_limit_wait_exceeded, nothing sent', async () => {
	const sb = await startSandbox();
	try {
		sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'rate_limit_429', count: 1, retry_after: 120 });
		const started = Date.now();
		const { error } = await runNode({ parameters: { ...batchParameters, options: { maxWaitSeconds: 2 } }, items: people(3), credentials: credentialsFor(sb) });
		expect(Date.now() - started).toBeLessThan(5000);
		expect(shownError(error)).toMatch(/^rate_limit_wait_exceeded: .*120 s.*raise the maximum wait or send less\..* — 3 messages: 0 sent, 3 failed; item 0$/);
		expect(sb.control.summary().messages).toBe(0);
	} finally {
		await sb.close();
	}
});
