/**
 * Contact → Import: the resource mapper's fields come from the account's attributes (loaded through
 * n8n-core's LoadOptionsContext, real HTTP), mapped values land converted to their type, and refused
 * rows are never hidden behind a green run.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { LoadOptionsContext } from 'n8n-core';
import type { ResourceMapperField } from 'n8n-workflow';
import { getContactFields } from '../../nodes/MessagingService/methods/resourceMapping.ts';
import { additionalDataFor, buildWorkflow, runNode, TestCredentialsHelper } from './harness.ts';
import { credentialsFor, isRoutableErrorJson, pairedIndex, shownError, startSandbox } from './support.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { localServer, reply } from '../client/local-server.ts';

let sb: Sandbox;
beforeAll(async () => {
	sb = await startSandbox();
});
afterAll(() => sb.close());
beforeEach(() => sb.control.reset());

const importParameters = { resource: 'contact', operation: 'import', waitForCompletion: true, waitTimeoutSeconds: 60 };

async function loadFields(apiKey?: string): Promise<ResourceMapperField[]> {
	const credentials = credentialsFor(sb, apiKey);
	const { workflow, node } = buildWorkflow({ parameters: { ...importParameters, mapping: 'defineBelow' }, items: [], credentials });
	const context = new LoadOptionsContext(workflow, node, additionalDataFor(new TestCredentialsHelper(credentials), 'load-options', workflow), 'parameters.contact');
	return (await getContactFields.call(context)).fields;
}

test('the mapper lists first_name, whatsapp, email, then every attribute of the account with its type', async () => {
	const fields = await loadFields();
	expect(fields.map((f) => [f.id, f.type])).toEqual([
		['first_name', 'string'],
		['whatsapp', 'string'],
		['email', 'string'],
		['city', 'string'],
		['vip', 'boolean'],
	]);
	expect(fields.find((f) => f.id === 'vip')!.displayName).toBe('VIP (vip)');
});

test('the mapper load fails with the service\'s own cause for a revoked key', async () => {
	await expect(loadFields('sk_test_demo_revoked')).rejects.toMatchObject({ message: expect.stringMatching(/^api_key_revoked: /) });
});

test('"Define Below": mapped values (strings from expressions) land converted to the attribute type', async () => {
	const schema = await loadFields();
	const contact = {
		mappingMode: 'defineBelow',
		value: { first_name: '={{ $json.name }}', email: '={{ $json.mail }}', whatsapp: '={{ $json.phone ?? "" }}', vip: '={{ $json.vip }}', city: '={{ $json.city }}' },
		matchingColumns: [],
		schema,
		attemptToConvertTypes: false,
		convertFieldsToString: false,
	};
	const { outputs, error } = await runNode({
		parameters: { ...importParameters, mapping: 'defineBelow', contact },
		items: [
			{ name: 'Ana', mail: 'ana@example.com', phone: '+4915100000001', vip: 'true', city: 'Berlin', ignored: 'x' },
			{ name: 'Bo', mail: 'bo@example.com', vip: 'false', city: '' },
		],
		credentials: credentialsFor(sb),
	});
	expect(error).toBeUndefined();
	expect(outputs[0]![0]!.json.totals).toMatchObject({ processed: 2, failed: 0 });
	const landed = ledgerRows(sb).contacts.map((c) => [c.first_name, c.email, c.whatsapp, c.attributes]);
	expect(landed).toEqual([
		['Ana', 'ana@example.com', '+4915100000001', { vip: true, city: 'Berlin' }],
		['Bo', 'bo@example.com', null, { vip: false }],
	]);
});

describe('refused rows are never hidden', () => {
	const items = [
		{ first_name: 'Ok', email: 'ok@example.com' },
		{ first_name: 'Bad', email: 'not-an-email' },
		{ first_name: 'Ok too', email: 'ok2@example.com' },
	];

	test('by default (no "On Error" setting) the node fails naming the refused row; the others are imported', async () => {
		const { error } = await runNode({ parameters: importParameters, items, credentials: credentialsFor(sb) });
		expect(shownError(error)).toMatch(/^rows_refused: 1 of 3 contacts were refused: item 1 validation_failed \(email\) .*Continue \(using error output\).* — item 1$/);
		expect(ledgerRows(sb).contacts.map((c) => c.email)).toEqual(['ok@example.com', 'ok2@example.com']);
	});

	test('with the error output, the refused row goes there, paired with its item; the summary stays on the main output', async () => {
		const { outputs, error } = await runNode({ parameters: importParameters, items, credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
		expect(error).toBeUndefined();
		const [main, errors] = outputs;
		expect(main).toHaveLength(1);
		expect(main![0]!.json.totals).toMatchObject({ failed: 1 });
		expect(main![0]!.json.outcome).toMatch(/^2 imported, 1 failed\b/);
		// Each job says what it imported, counted as Job → Get counts it (src/job-results.ts).
		expect(main![0]!.json.jobs).toEqual([expect.objectContaining({ total: 3, processed: 3, failed: 1, imported: 2 })]);
		expect(errors!.map(pairedIndex)).toEqual([1]);
		expect(isRoutableErrorJson(errors![0]!.json, ['first_name', 'email'])).toBe(true);
		expect(errors![0]!.json.details).toMatchObject({ code: 'validation_failed', param: 'email' });
	});

	test('with "Continue (using regular output)" the refused row is an error item beside the summary', async () => {
		const { outputs } = await runNode({ parameters: importParameters, items, credentials: credentialsFor(sb), onError: 'continueRegularOutput' });
		const failed = outputs[0]!.filter((item) => typeof item.json.error === 'string');
		expect(failed.map(pairedIndex)).toEqual([1]);
	});

	test('"Refused Rows: Fail the Node" fails even when the node continues on error', async () => {
		const { error } = await runNode({ parameters: { ...importParameters, options: { failedRows: 'failNode' } }, items, credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
		expect(shownError(error)).toMatch(/^rows_refused: 1 of 3 contacts were refused/);
	});
});

test('an import chunk whose outcome is unknown (reset after the job was queued) is an error item with the key that settles it; importing again with it replays the job', async () => {
	sb.control.addFault({ route: 'POST /v1/contacts/bulk', kind: 'reset_after_commit', count: 100 });
	const items = [{ first_name: 'A', email: 'a@example.com' }, { first_name: 'B', email: 'b@example.com' }];
	const options = { idempotencyKey: 'import-unknown-test' };
	const { outputs, error } = await runNode({ parameters: { ...importParameters, options }, items, credentials: credentialsFor(sb), onError: 'continueErrorOutput' });
	expect(error).toBeUndefined();
	const failed = outputs[1]!;
	expect(failed.map(pairedIndex)).toEqual([0, 1]);
	expect(failed[0]!.json.error).toMatch(/^Outcome unknown: /);
	expect(failed[0]!.json.details).toMatchObject({ outcome: 'unknown', idempotencyKey: expect.stringMatching(/^import-unknown-test/) });
	expect(failed[0]!.json.message).toContain(`Idempotency key: ${(failed[0]!.json.details as { idempotencyKey: string }).idempotencyKey}.`);

	sb.control.clearFaults();
	const again = await runNode({ parameters: { ...importParameters, options }, items, credentials: credentialsFor(sb) });
	expect(again.error).toBeUndefined();
	expect(ledgerRows(sb).jobs).toHaveLength(1);
	expect(ledgerRows(sb).contacts.map((c) => c.email)).toEqual(['a@example.com', 'b@example.com']);
});

test('a job row error that names no row reaches the error output too, paired with the job\'s items; a row without a code is src\'s row_error', async () => {
	// A service answer the sandbox never gives: one error with no index, one with an index but no code.
	const server = await localServer((e, res) => {
		if (e.url.endsWith('/contacts/bulk')) return reply(res, 202, { data: { object: 'job', id: 'job_1', status: 'queued', total: 2, processed: 0, failed: 0, errors: [], created_at: 'now' } });
		const errors = [{ error: { code: 'validation_failed', message: 'a row of this job' } }, { index: 1, error: { message: 'odd' } }];
		return reply(res, 200, { data: { object: 'job', id: 'job_1', status: 'done', total: 2, processed: 2, failed: 2, errors, created_at: 'now', completed_at: 'now' } });
	});
	try {
		const items = [{ email: 'a@example.com' }, { email: 'b@example.com' }];
		const { outputs, error } = await runNode({ parameters: importParameters, items, credentials: { apiKey: 'sk_test_demo_ok', baseUrl: server.url }, onError: 'continueErrorOutput' });
		expect(error).toBeUndefined();
		const errors = outputs[1]!;
		expect(errors.map((item) => [item.pairedItem, (item.json.details as { code: string }).code])).toEqual([
			[{ item: 1 }, 'row_error'],
			[[{ item: 0 }, { item: 1 }], 'validation_failed'],
		]);
		expect(outputs[0]![0]!.json.rowErrors).toHaveLength(2);
	} finally {
		await server.close();
	}
});
