/** Rate-limit pacing and Retry-After honoured inside the node, with the user's maximum wait. */
import { ledgerRows } from '../support/ledger-rows.ts';
import { runNode } from './harness.ts';
import { batchParameters, credentialsFor, pairedIndex, people, startSandbox, shownError } from './support.ts';
import { useVirtualTime, waits } from './virtual-time.ts';

jest.mock('n8n-workflow', () => ({ ...jest.requireActual('n8n-workflow'), sleep: (ms: number) => jest.requireActual<typeof import('./virtual-time.ts')>('./virtual-time.ts').virtualSleep(ms) }));
useVirtualTime();
const clock = () => Date.now();

test('a 429 storm under a low rate window: every item is still sent exactly once', async () => {
	const sb = await startSandbox({ window_seconds: 1, accounts: [{ id: 'acc_rate_limited', rate_limit: 2 }] }, clock);
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
		// 5 calls + 5 injected 429s, and not one call the window itself refused: the node paced itself.
		expect(ledgerRows(sb).requests).toBe(10);
		// 10 calls at 2 per 1 s window span at least 5 windows: the waits really reached the resets…
		expect(elapsed).toBeGreaterThanOrEqual(4000);
		// …and none waited longer than a Retry-After of 1 s plus one fair slot (1 s / 2 calls).
		expect(waits.length).toBeGreaterThanOrEqual(4);
		expect(Math.max(...waits.map((w) => w.ms))).toBeLessThanOrEqual(1500);
	} finally {
		await sb.close();
	}
});

test('per-item Send under a 2-per-second ceiling paces itself instead of failing', async () => {
	const sb = await startSandbox({ window_seconds: 1, accounts: [{ id: 'acc_rate_limited', rate_limit: 2 }] }, clock);
	try {
		const items = people(7);
		const started = Date.now();
		const { outputs, error } = await runNode({
			parameters: { resource: 'message', operation: 'send', channel: 'email', to: '={{ $json.email }}', subject: 'Hi', body: 'x' },
			items,
			credentials: credentialsFor(sb, 'sk_test_demo_rate_limited'),
		});
		expect(error).toBeUndefined();
		expect(outputs[0]).toHaveLength(7);
		expect(sb.control.summary()).toMatchObject({ messages: 7, duplicates_detected: 0 });
		// 7 calls, none refused: at 2 per window they span 4 windows, so it waited at least 3 s.
		expect(ledgerRows(sb).requests).toBe(7);
		expect(Date.now() - started).toBeGreaterThanOrEqual(3000);
	} finally {
		await sb.close();
	}
});

test('a Retry-After beyond "Max Rate-Limit Wait" stops at once with rate_limit_wait_exceeded, nothing sent', async () => {
	const sb = await startSandbox(undefined, clock);
	try {
		sb.control.addFault({ route: 'POST /v1/messages/batch', kind: 'rate_limit_429', count: 1, retry_after: 120 });
		const { error } = await runNode({ parameters: { ...batchParameters, options: { maxWaitSeconds: 2 } }, items: people(3), credentials: credentialsFor(sb) });
		expect(waits).toEqual([]);
		expect(shownError(error)).toMatch(/^rate_limit_wait_exceeded: .*120 s.*raise the option "Max Rate-Limit Wait \(Seconds\)", or send less\..* — 3 messages: 0 sent, 3 failed; item 0$/);
		expect(sb.control.summary().messages).toBe(0);
	} finally {
		await sb.close();
	}
});
