/**
 * What a user meets in the real n8n 2.41.1 editor (`n8n start`, owner signed in, our packed package
 * installed), through the REST API the editor's own code calls:
 * - the credential "Test" of each bad sandbox key shows that key's own cause;
 * - Contact Import's resource mapper loads the sandbox account's attributes with their types, and an
 *   import mapped with them lands with the right type (checked in the sandbox's contacts);
 * - a refused import row reaches the node's error output.
 * Set MSGSVC_SKIP_N8N_E2E=1 to skip.
 */
import { ledgerRows } from '../../support/ledger-rows.ts';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { start } from '../../../sandbox/server.ts';
import type { Sandbox } from '../../../sandbox/server.ts';
import { openEditor } from './editor-session.ts';
import type { EditorSession } from './editor-session.ts';
import { ensureHost, killAll, repoRoot, run } from './n8n-harness.ts';
import type { N8nCredential, N8nWorkflow } from './n8n-harness.ts';
import { realN8nSkipped } from '../../support/system.ts';

const PACKAGE = 'n8n-nodes-messaging-service';
const NODE_TYPE = `${PACKAGE}.messagingService`;
const MINUTES = 60_000;
const describeE2e = realN8nSkipped() ? describe.skip : describe;

const BAD_KEYS: [label: string, id: string, apiKey: string, expected: RegExp][] = [
	['revoked', 'msgKeyRevoked', 'sk_test_demo_revoked', /^api_key_revoked: .*issue a new key/],
	['expired', 'msgKeyExpired', 'sk_test_demo_expired', /^api_key_expired: .*issue a new key/],
	['plan expired', 'msgKeyPlanExpired', 'sk_test_demo_plan_expired', /^subscription_expired: .*renew it/],
	['suspended', 'msgKeySuspended', 'sk_test_demo_suspended', /^account_suspended: .*a new key does not help/],
];

function credential(id: string, apiKey: string, baseUrl: string): N8nCredential {
	return { id, name: `Messaging Service (${id})`, type: 'messagingServiceApi', data: { apiKey, baseUrl } };
}

/** Manual Trigger → Code (the given rows) → Contact Import with the given parameters, error output on. */
function importWorkflow(id: string, rows: Record<string, unknown>[], parameters: Record<string, unknown>): N8nWorkflow {
	return {
		id,
		name: id,
		nodes: [
			{ id: `${id}0`, name: 'Start', type: 'n8n-nodes-base.manualTrigger', typeVersion: 1, position: [0, 0], parameters: {} },
			{ id: `${id}1`, name: 'Rows', type: 'n8n-nodes-base.code', typeVersion: 2, position: [220, 0], parameters: { jsCode: `return ${JSON.stringify(rows)}.map((json) => ({ json }));` } },
			{
				id: `${id}2`,
				name: 'Import',
				type: NODE_TYPE,
				typeVersion: 1,
				position: [440, 0],
				parameters: { resource: 'contact', operation: 'import', waitForCompletion: true, waitTimeoutSeconds: 60, options: {}, ...parameters },
				credentials: { messagingServiceApi: { id: 'msgKeyOk', name: 'Messaging Service (msgKeyOk)' } },
				onError: 'continueErrorOutput',
			},
		],
		connections: { Start: { main: [[{ node: 'Rows', type: 'main', index: 0 }]] }, Rows: { main: [[{ node: 'Import', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

function outputJson(runData: Record<string, any[]>, node: string, output: number): Record<string, any>[] {
	return (runData[node]?.at(-1)?.data?.main?.[output] ?? []).map((item: { json: Record<string, any> }) => item.json);
}

describeE2e('the package in a real n8n 2.41.1 editor (REST as the editor calls it)', () => {
	let sb: Sandbox;
	let work: string;
	let editor: EditorSession | undefined;

	beforeAll(async () => {
		await ensureHost();
		sb = await start({ port: 0, host: '127.0.0.1', config: { job_rows_per_second: 2000 } });
		work = await mkdtemp(join(tmpdir(), 'n8n-package-e2e-'));
		const packed = await run(join(repoRoot(), 'node_modules', '.bin', 'node'), [join(repoRoot(), 'nodes', 'build', 'lint-package.mjs'), '--pack-only', '--out', work], { cwd: repoRoot(), timeoutMs: 6 * MINUTES });
		if (packed.code !== 0) throw new Error(`build/pack failed:\n${packed.stderr}`);
		const tarball = JSON.parse(packed.stdout.trim().split('\n').at(-1)!).tarball as string;
		const rows = [
			{ first_name: 'Typed', email: 'typed@example.com', vip: 'true', city: 'Lisbon' },
			{ first_name: 'Plain', email: 'plain@example.com', vip: 'false', city: '' },
		];
		editor = await openEditor({
			tarball,
			packageName: PACKAGE,
			credentials: [
				credential('msgKeyOk', 'sk_test_demo_ok', sb.url),
				credential('msgWrongBaseUrl', 'sk_test_demo_ok', sb.url.replace(/\/v1$/, '')),
				...BAD_KEYS.map(([, id, apiKey]) => credential(id, apiKey, sb.url)),
			],
			workflows: [
				importWorkflow('msgImportRefused', [{ first_name: 'Fine', email: 'fine@example.com' }, { first_name: 'Broken', email: 'not-an-email' }], { mapping: 'autoMapInputData' }),
				importWorkflow('msgImportTyped', rows, { mapping: 'defineBelow' }),
			],
		});
	}, 20 * MINUTES);

	afterAll(async () => {
		await editor?.close();
		await killAll();
		await sb?.close();
		if (work) await rm(work, { recursive: true, force: true });
	});

	async function testCredential(id: string, apiKey: string, baseUrl: string): Promise<{ status: string; message: string }> {
		return await editor!.rest('POST', '/credentials/test', { credentials: { id, name: `Messaging Service (${id})`, type: 'messagingServiceApi', data: { apiKey, baseUrl } } });
	}

	test('credential Test: a good key connects', async () => {
		expect(await testCredential('msgKeyOk', 'sk_test_demo_ok', sb.url)).toMatchObject({ status: 'OK' });
	});

	test.each(BAD_KEYS)('credential Test: a %s key shows its own cause', async (_label, id, apiKey, expected) => {
		const result = await testCredential(id, apiKey, sb.url);
		expect(result.status).toBe('Error');
		expect(result.message).toMatch(expected);
		expect(result.message).not.toContain(apiKey);
	});

	test('credential Test: a wrong base URL says so', async () => {
		const result = await testCredential('msgWrongBaseUrl', 'sk_test_demo_ok', sb.url.replace(/\/v1$/, ''));
		expect(result).toMatchObject({ status: 'Error', message: expect.stringMatching(/^resource_not_found: the Base URL .*ends in \/v1/) });
	});

	test('the resource mapper loads the account\'s attributes with their types; a typed import lands typed', async () => {
		const loaded = await editor!.rest<{ fields: { id: string; type: string; displayName: string }[] }>('POST', '/dynamic-node-parameters/resource-mapper-fields', {
			path: 'parameters.contact',
			methodName: 'getContactFields',
			nodeTypeAndVersion: { name: NODE_TYPE, version: 1 },
			currentNodeParameters: { resource: 'contact', operation: 'import', mapping: 'defineBelow' },
			credentials: { messagingServiceApi: { id: 'msgKeyOk', name: 'Messaging Service (msgKeyOk)' } },
		});
		expect(loaded.fields.map((f) => [f.id, f.type])).toEqual([
			['first_name', 'string'],
			['whatsapp', 'string'],
			['email', 'string'],
			['city', 'string'],
			['vip', 'boolean'],
		]);

		// Map with what the editor loaded, as the editor saves it, then run.
		const workflow = await editor!.rest<{ nodes: any[]; versionId: string }>('GET', '/workflows/msgImportTyped');
		const importNode = workflow.nodes.find((n) => n.name === 'Import');
		importNode.parameters.contact = {
			mappingMode: 'defineBelow',
			value: { first_name: '={{ $json.first_name }}', email: '={{ $json.email }}', vip: '={{ $json.vip }}', city: '={{ $json.city }}' },
			matchingColumns: [],
			schema: loaded.fields.map((f) => ({ ...f, display: true, removed: false })),
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		};
		await editor!.rest('PATCH', '/workflows/msgImportTyped', { nodes: workflow.nodes, versionId: workflow.versionId });
		const { status, runData } = await editor!.runWorkflow('msgImportTyped', 'Start');
		expect(status).toBe('success');
		expect(outputJson(runData, 'Import', 0)[0]).toMatchObject({ completed: true, totals: { processed: 2, failed: 0 } });
		const landed = ledgerRows(sb).contacts.filter((c) => ['typed@example.com', 'plain@example.com'].includes(c.email as string));
		expect(landed.map((c) => [c.email, c.attributes])).toEqual([
			['typed@example.com', { vip: true, city: 'Lisbon' }],
			['plain@example.com', { vip: false }],
		]);
	}, 5 * MINUTES);

	test('a refused import row reaches the error output, paired with its item; the run is not green-with-hidden-failures', async () => {
		const { runData } = await editor!.runWorkflow('msgImportRefused', 'Start');
		const [summary] = outputJson(runData, 'Import', 0);
		expect(summary).toMatchObject({ totals: { contacts: 2, failed: 1 } });
		const refused = outputJson(runData, 'Import', 1);
		expect(refused).toHaveLength(1);
		expect(refused[0]).toMatchObject({ error: expect.stringMatching(/^validation_failed: /), details: { code: 'validation_failed', param: 'email' } });
		expect(runData.Import!.at(-1).data.main[1][0].pairedItem).toEqual({ item: 1 });
	}, 5 * MINUTES);
});
