/**
 * Send Batch's Mapping "Map Automatically": each item's to, body, subject and channel fields (or the
 * names under Field Names) are read by name, with no expression. n8n-core's engine, real HTTP to the
 * sandbox. A workflow saved before Mapping existed keeps "Map Each Field Below".
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { runNode } from './harness.ts';
import { useDedupStore } from './dedup-store.ts';
import { useSandbox } from '../sandbox/helpers.ts';
import { batchParameters, credentialsFor, pairedIndex, shownError } from './support.ts';

const sb = useSandbox({ job_rows_per_second: 5000 });
useDedupStore();

const auto = { resource: 'message', operation: 'sendBatch', fieldMapping: 'autoMapInputData', channel: 'email' };

function messages(n: number) {
	return Array.from({ length: n }, (_, i) => ({ to: `user${i}@example.com`, subject: `Hello ${i}`, body: `Body for ${i}`, n: i }));
}

test('1,203 items by field name: 3 calls, each message its own to, subject and body; an item’s channel field wins over the Channel parameter, the subject is left out on WhatsApp', async () => {
	const items: Record<string, unknown>[] = messages(1203);
	items[640] = { to: '+4915112345640', subject: 'not on WhatsApp', body: 'Hi on WhatsApp', channel: 'whatsapp' };
	const before = ledgerRows(sb).requests;
	const { outputs, error, hints } = await runNode({ parameters: auto, items, credentials: credentialsFor(sb) });
	expect(error).toBeUndefined();
	expect(ledgerRows(sb).requests - before).toBe(3);
	const main = outputs[0]!;
	expect(main.map(pairedIndex)).toEqual(items.map((_, i) => i));
	const byId = new Map(ledgerRows(sb).messages.map((m) => [m.id, m]));
	expect(byId.size).toBe(1203);
	for (const item of main) {
		const i = pairedIndex(item)!;
		const sent = byId.get(item.json.id as string)!;
		if (i === 640) expect(sent).toMatchObject({ channel: 'whatsapp', to: '+4915112345640', body: 'Hi on WhatsApp', subject: null });
		else expect(sent).toMatchObject({ channel: 'email', to: `user${i}@example.com`, subject: `Hello ${i}`, body: `Body for ${i}` });
	}
	expect(hints.join('\n')).toContain('The subject is not sent on 1 whatsapp message: only email takes one.');
});

test('Field Names: email as To, text as Body, title as Subject, medium as Channel; the default names are then not read', async () => {
	const items = [
		{ email: 'ada@example.com', text: 'Hi Ada', title: 'News', medium: 'email', to: 'wrong@example.com', body: 'wrong' },
		{ email: '+4915112345678', text: 'Hi Grace', medium: 'whatsapp' },
		{ email: 'alan@example.com', text: 'Hi Alan' },
	];
	const parameters = { ...auto, channel: 'email', fieldNames: { toField: 'email', bodyField: 'text', subjectField: 'title', channelField: 'medium' } };
	const { outputs, error } = await runNode({ parameters, items, credentials: credentialsFor(sb) });
	expect(error).toBeUndefined();
	expect(outputs[0]!.map((i) => [pairedIndex(i), i.json.channel, i.json.to])).toEqual([
		[0, 'email', 'ada@example.com'],
		[1, 'whatsapp', '+4915112345678'],
		[2, 'email', 'alan@example.com'],
	]);
	expect(ledgerRows(sb).messages.map((m) => [m.channel, m.to, m.subject, m.body])).toEqual([
		['email', 'ada@example.com', 'News', 'Hi Ada'],
		['whatsapp', '+4915112345678', null, 'Hi Grace'],
		['email', 'alan@example.com', null, 'Hi Alan'],
	]);
});

test('the Channel parameter is the channel of items without a channel field', async () => {
	const items = [{ to: '+4915112345678', body: 'one' }, { to: 'ada@example.com', body: 'two', channel: 'email' }];
	const { error } = await runNode({ parameters: { ...auto, channel: 'whatsapp' }, items, credentials: credentialsFor(sb) });
	expect(error).toBeUndefined();
	expect(ledgerRows(sb).messages.map((m) => [m.channel, m.to])).toEqual([['whatsapp', '+4915112345678'], ['email', 'ada@example.com']]);
});

test('a missing or mistyped field refuses its item by name at its index (error output); the others are sent', async () => {
	const items: Record<string, unknown>[] = [
		{ to: 'ok0@example.com', body: 'fine' },
		{ body: 'no recipient' },
		{ to: 4915112345678, body: 'number to' },
		{ to: 'ok3@example.com', body: { html: '<p>hi</p>' } },
		{ to: 'ok4@example.com', body: 'list subject', subject: ['a', 'b'] },
		{ to: 'ok5@example.com', body: 'key object', idempotencyKey: { id: 1 } },
		{ to: 'ok6@example.com', body: 'channel number', channel: 7 },
		{ to: 'ok7@example.com' },
		{ to: 'ok8@example.com', body: 'fine too', subject: null, channel: null },
	];
	const { outputs, error } = await runNode({ parameters: auto, items, credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
	expect(error).toBeUndefined();
	const [main, errors] = outputs;
	expect(main!.map(pairedIndex)).toEqual([0, 8]);
	expect(errors!.map(pairedIndex)).toEqual([1, 2, 3, 4, 5, 6, 7]);
	const refusal = (i: number) => errors!.find((e) => pairedIndex(e) === i)!.json;
	expect(refusal(1)).toMatchObject({ error: 'invalid_input: Item 1 has no field "to" (To)', details: { code: 'invalid_input', param: 'to' } });
	expect(refusal(1).message).toMatch(/Give every item a "to" field, or under Field Names name the field that holds the To\. — item 1$/);
	expect(refusal(2).error).toBe('invalid_input: Field "to" (To) of item 2 is a number, not text');
	expect(refusal(3).error).toBe('invalid_input: Field "body" (Body) of item 3 is an object, not text');
	expect(refusal(4).error).toBe('invalid_input: Field "subject" (Subject) of item 4 is a list, not text');
	// A title cut at 80 characters: the full sentence opens the description.
	expect(refusal(5).error).toMatch(/^invalid_input: Field "idempotencyKey" \(Idempotency Key\) of item 5 is an…$/);
	expect(refusal(5).message).toMatch(/^Field "idempotencyKey" \(Idempotency Key\) of item 5 is an object, not text or a number\. /);
	expect(refusal(6).error).toBe('invalid_input: Field "channel" (Channel) of item 6 is a number, not text');
	expect(refusal(7).error).toBe('invalid_input: Item 7 has no field "body" (Body)');
	expect(ledgerRows(sb).messages.map((m) => m.to)).toEqual(['ok0@example.com', 'ok8@example.com']);
});

test('a field name that only the prototype has ("constructor", "__proto__", "toString") is missing, never read from Object.prototype', async () => {
	for (const name of ['constructor', '__proto__', 'toString']) {
		const { outputs } = await runNode({
			parameters: { ...auto, fieldNames: { toField: name } },
			items: [{ to: 'a@example.com', body: 'x' }],
			credentials: credentialsFor(sb),
			onError: 'continueErrorOutput',
		});
		expect(outputs[1]!.map((e) => e.json.error)).toEqual([`invalid_input: Item 0 has no field "${name}" (To)`]);
	}
	expect(ledgerRows(sb).messages).toHaveLength(0);
});

test('without continue-on-fail a refused item stops the node before anything is sent, naming the field and the item', async () => {
	const items: Record<string, unknown>[] = messages(4);
	items[2] = { email: 'x@example.com', body: 'renamed upstream' };
	const { error, outputs } = await runNode({ parameters: auto, items, credentials: credentialsFor(sb) });
	expect(outputs).toEqual([]);
	expect(shownError(error)).toMatch(/^invalid_input: Item 2 has no field "to" \(To\) Give every item a "to" field.* — item 2$/);
	expect(error).toMatchObject({ name: 'NodeOperationError' });
	expect(ledgerRows(sb).messages).toHaveLength(0);
});

test('Map Automatically ignores To, Subject and Body parameters left from Map Each Field Below: no expression is evaluated', async () => {
	// An expression that would throw if n8n evaluated it.
	const parameters = { ...auto, to: '={{ $json.missing.deeper }}', subject: '={{ $json.missing.deeper }}', body: 'parameter body' };
	const { outputs, error } = await runNode({ parameters, items: messages(2), credentials: credentialsFor(sb) });
	expect(error).toBeUndefined();
	expect(outputs[0]!.map((i) => i.json.to)).toEqual(['user0@example.com', 'user1@example.com']);
	expect(ledgerRows(sb).messages.map((m) => m.body)).toEqual(['Body for 0', 'Body for 1']);
});

test('a workflow saved before Mapping existed (no fieldMapping) maps each field below, as before: the item’s own to and body fields are not read', async () => {
	expect(batchParameters).not.toHaveProperty('fieldMapping');
	const items = [{ email: 'ada@example.com', name: 'Ada', n: 0, to: 'wrong@example.com', body: 'wrong' }];
	const { outputs, error } = await runNode({ parameters: batchParameters, items, credentials: credentialsFor(sb) });
	expect(error).toBeUndefined();
	expect(outputs[0]![0]!.json).toMatchObject({ to: 'ada@example.com' });
	expect(ledgerRows(sb).messages.map((m) => [m.to, m.subject, m.body])).toEqual([['ada@example.com', 'Hello Ada', 'Body for 0']]);
});
