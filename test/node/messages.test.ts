/** Message operations through n8n-core's real engine against the sandbox over HTTP. */
import { ledgerRows } from '../support/ledger-rows.ts';
import { executeDirectly, runNode } from './harness.ts';
import { batchParameters, credentialsFor, DEMO_KEY, isRoutableErrorJson, pairedIndex, people, startSandbox, shownError } from './support.ts';
import type { Sandbox } from '../../sandbox/server.ts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

test('Send Batch: 1,203 items → 3 calls of ≤500, one output per item with its id, invalid items on the error output, pairedItem right', async () => {
	const items: Record<string, unknown>[] = people(1203);
	items[7] = { email: 'not-an-email', name: 'Bad', n: 7 };
	items[640] = { email: 'user640@example.com', name: 'X', n: 640, channel: 'whatsapp' };
	const before = ledgerRows(sb).requests;
	const { outputs, error } = await runNode({
		parameters: { ...batchParameters, channel: '={{ $json.channel ?? "email" }}' },
		items,
		credentials: credentialsFor(sb),
		onError: 'continueErrorOutput',
	});
	expect(error).toBeUndefined();
	const [main, errors] = outputs;
	expect(main).toHaveLength(1201);
	expect(errors).toHaveLength(2);
	// Three batch calls (500 + 500 + 203), nothing else.
	expect(ledgerRows(sb).requests - before).toBe(3);
	const ledger = ledgerRows(sb).messages;
	expect(ledger).toHaveLength(1201);
	const byId = new Map(ledger.map((m) => [m.id, m]));
	for (const item of main!) {
		const i = pairedIndex(item)!;
		expect(item.json).toMatchObject({ channel: 'email', to: `user${i}@example.com`, replayed: false });
		expect(byId.get(item.json.id as string)).toMatchObject({ to: `user${i}@example.com`, body: `Body for ${i}`, subject: `Hello User ${i}` });
	}
	expect(main!.map(pairedIndex)).toEqual(items.map((_, i) => i).filter((i) => i !== 7 && i !== 640));
	expect(errors!.map(pairedIndex)).toEqual([7, 640]);
	const [bad, whatsappToEmail] = errors!;
	expect(bad!.json.error).toMatch(/^validation_failed: /);
	expect((bad!.json.error as string).length).toBeLessThanOrEqual(80);
	expect(bad!.json.message).toMatch(/^Fix the field `to`\..* — item 7$/);
	// A row refused inside the batch's 200 answer has no HTTP status: null, never a 422 made up from its code.
	expect(bad!.json.details).toMatchObject({ code: 'validation_failed', param: 'to', type: 'invalid_request_error', status: null });
	// The Subject is left out on WhatsApp (src/channel-rules.ts); an e-mail address as its recipient is refused.
	expect(whatsappToEmail!.json.details).toMatchObject({ code: 'validation_failed', param: 'to' });
	expect(whatsappToEmail!.json.message).toMatch(/ — item 640$/);
	expect(sb.control.summary().duplicates_detected).toBe(0);
});

test('Send Batch with "Continue (using regular output)": error items carry only error, message, details (+ the input fields n8n merges on routing)', async () => {
	const items = people(3);
	items[1]!.email = 'nope';
	const { outputs } = await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb), onError: 'continueRegularOutput' });
	expect(outputs).toHaveLength(1);
	const main = outputs[0]!;
	expect(main.map(pairedIndex)).toEqual([0, 1, 2]);
	expect(main[0]!.json.id).toMatch(/^msg_/);
	expect(Object.keys(main[1]!.json).sort()).toEqual(['details', 'error', 'message']);
	expect(isRoutableErrorJson(main[1]!.json)).toBe(true);
});

test('execute() itself returns pairedItem on every item (success and error), in input order', async () => {
	const items = people(4);
	items[2]!.email = 'broken';
	const result = await executeDirectly({ parameters: batchParameters, items, credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
	expect(result).toHaveLength(1);
	expect(result[0]!.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 1 }, { item: 2 }, { item: 3 }]);
	expect(isRoutableErrorJson(result[0]![2]!.json)).toBe(true);
	expect(result[0]![2]!.json.details).toMatchObject({ code: 'validation_failed', param: 'to' });
});

test('Send Batch without continue-on-fail: an element failure stops the node; the message names code, remedy, counts and ends with the item index', async () => {
	const items = people(5);
	items[3]!.email = 'broken';
	const { error, outputs } = await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb) });
	expect(outputs).toEqual([]);
	expect(shownError(error)).toMatch(/^validation_failed: .+ Fix the field `to`\. .*5 messages: 4 sent, 1 failed; item 3$/);
	// The batch call itself answered 200: the node shows no HTTP code for the refused row.
	expect(error).toMatchObject({ name: 'NodeOperationError' });
	expect((error as { httpCode?: unknown }).httpCode ?? null).toBeNull();
});

test('Send Batch: a 402 after chunks went out says how many went out, failed and were not attempted (credit for 1,000 of 2,200)', async () => {
	// Five chunks (500 × 4, 200), two in flight at a time. Chunks 0 and 1 fit the credit whichever lands
	// first; chunks 2 and 3 start only when they are back and are both refused (402: nothing sent);
	// chunk 4 starts only after one of those refusals, so the run has stopped: not attempted.
	sb.control.configure({ accounts: [{ id: 'acc_demo', credits: 1000 }] });
	const { error } = await runNode({ parameters: batchParameters, items: people(2200), credentials: credentialsFor(sb) });
	expect(ledgerRows(sb).messages).toHaveLength(1000);
	expect(shownError(error)).toMatch(/^insufficient_credits: .+ top up, then retry the identical call\..* — 2200 messages: 1000 sent, 1000 failed, 200 not attempted; item 1000$/);
	expect(error).toMatchObject({ name: 'NodeApiError', httpCode: '402' });
});

test('Send Batch: a whole-call failure with the error output routes every item of the failed call, with details', async () => {
	const { outputs } = await runNode({
		parameters: batchParameters,
		items: people(3),
		credentials: credentialsFor(sb, 'sk_test_demo_no_messages_write'),
		onError: 'continueErrorOutput',
	});
	const [main, errors] = outputs;
	expect(main).toHaveLength(0);
	expect(errors!.map(pairedIndex)).toEqual([0, 1, 2]);
	expect(errors![0]!.json.details).toMatchObject({ code: 'insufficient_scope', status: 403, type: expect.any(String), doc_url: expect.stringContaining('insufficient_scope'), requestId: expect.stringMatching(/^req_/), wholeCall: true });
	expect(errors![0]!.json.error).toMatch(/^insufficient_scope: /);
	expect(errors![0]!.json.message).toMatch(/issue a new key with that scope.* — item 0$/);
	expect(ledgerRows(sb).messages).toHaveLength(0);
});

test('Send: one message per item to many recipients (chunks of 100), one output per recipient, a bad recipient on the error output', async () => {
	const many = Array.from({ length: 150 }, (_, i) => `+49151${String(2000000 + i)}`);
	const items = [
		{ to: 'a@example.com, b@example.com; nope', channel: 'email' },
		{ to: many, channel: 'whatsapp' },
	];
	const before = ledgerRows(sb).requests;
	const { outputs } = await runNode({
		parameters: { resource: 'message', operation: 'send', channel: '={{ $json.channel }}', to: '={{ $json.to }}', subject: '={{ $json.channel === "email" ? "Release" : "" }}', body: 'Release 1.2 is out' },
		items,
		credentials: credentialsFor(sb),
		onError: 'continueErrorOutput',
	});
	const [main, errors] = outputs;
	expect(ledgerRows(sb).requests - before).toBe(3); // 1 call for item 0, 2 calls (100 + 50) for item 1
	expect(main).toHaveLength(152);
	expect(main!.slice(0, 2).map((i) => [i.json.to, pairedIndex(i)])).toEqual([['a@example.com', 0], ['b@example.com', 0]]);
	expect(main!.slice(2).every((i) => pairedIndex(i) === 1)).toBe(true);
	expect(errors).toHaveLength(1);
	expect(pairedIndex(errors![0]!)).toBe(0);
	expect(errors![0]!.json.details).toMatchObject({ code: 'validation_failed', to: 'nope', recipientIndex: 2 });
	expect(errors![0]!.json.message).toMatch(/recipient nope; item 0$/);
	const ledger = ledgerRows(sb).messages;
	expect(ledger).toHaveLength(152);
	expect(ledger.filter((m) => m.channel === 'whatsapp').every((m) => m.subject === null)).toBe(true);
});

test('Message → Get reads a sent message', async () => {
	const sent = await runNode({ parameters: batchParameters, items: people(1), credentials: credentialsFor(sb) });
	const id = sent.outputs[0]![0]!.json.id as string;
	const { outputs } = await runNode({ parameters: { resource: 'message', operation: 'get', messageId: '={{ $json.id }}' }, items: [{ id }], credentials: credentialsFor(sb) });
	expect(outputs[0]![0]!.json).toMatchObject({ id, to: 'user0@example.com' });
	expect(pairedIndex(outputs[0]![0]!)).toBe(0);
});

test('Message → Get of an unknown id: resource_not_found with remedy and item index; routed with continue-on-fail', async () => {
	const failing = await runNode({ parameters: { resource: 'message', operation: 'get', messageId: 'msg_doesnotexist' }, items: [{}], credentials: credentialsFor(sb) });
	expect(shownError(failing.error)).toMatch(/^resource_not_found: .+ check the id and the key’s account\..* — item 0$/);
	const routed = await runNode({
		parameters: { resource: 'message', operation: 'get', messageId: '={{ $json.id }}' },
		items: [{ id: 'msg_doesnotexist' }, { id: 'msg_alsomissing' }],
		credentials: credentialsFor(sb),
		onError: 'continueErrorOutput',
	});
	expect(routed.outputs[0]).toHaveLength(0);
	expect(routed.outputs[1]!.map(pairedIndex)).toEqual([0, 1]);
	expect(routed.outputs[1]![1]!.json.details).toMatchObject({ code: 'resource_not_found', status: 404 });
});

test('the credentials are read once per execution, not once per call', async () => {
	const sent = await runNode({ parameters: batchParameters, items: people(1001), credentials: credentialsFor(sb) });
	expect(sent.outputs[0]).toHaveLength(1001);
	expect(sent.authorizations).toEqual([`Bearer ${DEMO_KEY}`, `Bearer ${DEMO_KEY}`, `Bearer ${DEMO_KEY}`]);
	expect(sent.credentialReads).toBe(1);
});

test('the API key goes only into the Authorization header: never in outputs or errors', async () => {
	const ok = await runNode({ parameters: batchParameters, items: people(2), credentials: credentialsFor(sb) });
	expect(ok.authorizations.every((h) => h === `Bearer ${DEMO_KEY}`)).toBe(true);
	expect(JSON.stringify(ok.outputs)).not.toContain(DEMO_KEY);
	for (const key of ['sk_test_demo_revoked', 'sk_test_demo_expired', 'sk_test_demo_plan_expired']) {
		const failed = await runNode({ parameters: batchParameters, items: people(2), credentials: credentialsFor(sb, key) });
		expect(shownError(failed.error)).toMatch(/^(api_key_revoked|api_key_expired|subscription_expired): /);
		expect(JSON.stringify(failed.run)).not.toContain(key);
		const routed = await runNode({ parameters: batchParameters, items: people(2), credentials: credentialsFor(sb, key), onError: 'continueErrorOutput' });
		expect(JSON.stringify(routed.run)).not.toContain(key);
	}
});
