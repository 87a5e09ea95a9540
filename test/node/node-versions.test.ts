/**
 * Node version 2 beside version 1. n8n saves only the parameters that differ from their default, so a
 * workflow saved with version 1 is its typeVersion plus a few values: every default version 1 resolved
 * must resolve the same (fixtures/v1-resolved-parameters.json was written by version 1's own code before
 * version 2 existed), and version 2's new defaults must hold for version 2 only. Then both versions run
 * through n8n-core's engine against the sandbox, with the operation omitted as n8n saves it.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeHelpers } from 'n8n-workflow';
import type { INode, INodeParameters, INodePropertyOptions } from 'n8n-workflow';
import { MessagingService } from '../../nodes/MessagingService/MessagingService.node.ts';
import { ledgerRows } from '../support/ledger-rows.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import v1Resolved from './fixtures/v1-resolved-parameters.json';
import { runNode } from './harness.ts';
import { credentialsFor, startSandbox } from './support.ts';

const description = new MessagingService().description;

/** The parameters n8n runs a node with: its saved ones plus every default shown for its version. */
function resolved(typeVersion: number, parameters: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, parameters, true, false, { typeVersion, parameters } as INode, description)!;
}

/** The parameters n8n saves for a node: those that differ from their default for its version. */
function saved(typeVersion: number, parameters: INodeParameters): INodeParameters {
	return NodeHelpers.getNodeParameters(description.properties, parameters, false, false, { typeVersion, parameters } as INode, description)!;
}

function operationsOf(resource: string, typeVersion: number): INodePropertyOptions[] {
	const shown = description.properties.filter((p) => p.name === 'operation' && NodeHelpers.displayParameter({ resource }, p, { typeVersion } as INode, description));
	expect(shown).toHaveLength(1);
	return shown[0]!.options as INodePropertyOptions[];
}

describe('parameters', () => {
	test('a new node is version 2; version 1 stays loadable', () => {
		expect(description.version).toEqual([1, 2]);
		expect(description.defaultVersion).toBe(2);
	});

	test.each(Object.entries(v1Resolved))('version 1 resolves "%s" as it did before version 2', (name, before) => {
		const { resource, operation, mapping } = before as INodeParameters;
		const parameters: INodeParameters = name === '(nothing saved)' ? {} : name.endsWith('(operation omitted)') ? { resource } : { resource, operation };
		if (name.endsWith('(Define Below)')) parameters.mapping = mapping;
		// New parameters may be added with a default; none of version 1's may change.
		expect(resolved(1, parameters)).toMatchObject(before as INodeParameters);
	});

	test('a Contact node saved with version 1 on Import omits the operation, and that still means Import', () => {
		const onImport = saved(1, { resource: 'contact', operation: 'import', mapping: 'autoMapInputData' });
		expect(onImport).toEqual({ resource: 'contact' });
		expect(resolved(1, onImport)).toMatchObject({ operation: 'import', mapping: 'autoMapInputData' });
		// Read as version 2, the same saved parameters would list contacts: hence the gate on typeVersion.
		expect(resolved(2, onImport).operation).toBe('getAll');
	});

	test.each([
		['workflow-v1-saved.json', 1],
		['workflow-v2.json', 2],
	])('the real-n8n fixture %s holds what n8n saves for each node of its version: nothing at its default', (file, version) => {
		const workflow = JSON.parse(readFileSync(join(__dirname, '..', 'e2e', 'n8n', 'fixtures', file), 'utf8')) as { nodes: INode[] };
		const messaging = workflow.nodes.filter((node) => node.type.endsWith('.messagingService'));
		expect(messaging.map((node) => node.typeVersion)).toEqual([version, version, version]);
		for (const node of messaging) expect(saved(node.typeVersion, node.parameters)).toEqual(node.parameters);
	});

	test('version 2: Contact defaults to Get Many, the other resources to a read, Message to the per-item Send', () => {
		const defaults = Object.fromEntries(['account', 'contact', 'contactAttribute', 'job', 'message'].map((resource) => [resource, resolved(2, { resource }).operation]));
		expect(defaults).toEqual({ account: 'get', contact: 'getAll', contactAttribute: 'getAll', job: 'get', message: 'sendBatch' });
		expect(resolved(2, {}).resource).toBe('message');
	});

	test("Message's operations carry n8n's messaging names over version 1's values, in both versions", () => {
		for (const typeVersion of [1, 2]) {
			expect(operationsOf('message', typeVersion).map((o) => [o.name, o.value])).toEqual([
				['Get', 'get'],
				['Send', 'sendBatch'],
				['Send to Many', 'send'],
			]);
		}
	});

	test('version 2 Import: no Mapping dropdown; the resource mapper has its own modes and maps automatically by default', () => {
		const v2 = resolved(2, { resource: 'contact', operation: 'import' });
		expect(v2).not.toHaveProperty('mapping');
		expect(v2.contact).toEqual({ mappingMode: 'autoMapInputData', value: null });
		const mappers = description.properties.filter((p) => p.name === 'contact' && NodeHelpers.displayParameter(v2, p, { typeVersion: 2 } as INode, description));
		expect(mappers.map((p) => p.typeOptions?.resourceMapper?.supportAutoMap)).toEqual([true]);
		// Version 1 keeps its dropdown, with the mapper shown only for "Define Below".
		expect(resolved(1, { resource: 'contact', operation: 'import' })).not.toHaveProperty('contact');
		expect(resolved(1, { resource: 'contact', operation: 'import', mapping: 'defineBelow' }).contact).toEqual({ mappingMode: 'defineBelow', value: null });
	});
});

describe('runs', () => {
	let sb: Sandbox;
	beforeAll(async () => {
		sb = await startSandbox();
	});
	afterAll(() => sb.close());
	beforeEach(() => sb.control.reset());

	const people = [
		{ first_name: 'Ada', email: 'ada@example.com' },
		{ first_name: 'Grace', email: 'grace@example.com' },
	];

	test('version 1 saved as { resource: contact }: the items are imported, mapped automatically', async () => {
		const { outputs, error } = await runNode({ typeVersion: 1, parameters: { resource: 'contact' }, items: people, credentials: credentialsFor(sb) });
		expect(error).toBeUndefined();
		expect(outputs[0]![0]!.json).toMatchObject({ completed: true, totals: { contacts: 2, processed: 2, failed: 0 } });
		expect(ledgerRows(sb).contacts.map((c) => [c.first_name, c.email])).toEqual([['Ada', 'ada@example.com'], ['Grace', 'grace@example.com']]);
	});

	test('version 2 saved as { resource: contact }: the contacts are listed and nothing is written', async () => {
		await runNode({ typeVersion: 2, parameters: { resource: 'contact', operation: 'import' }, items: people, credentials: credentialsFor(sb) });
		const before = ledgerRows(sb);
		expect(before.contacts).toHaveLength(2);

		const { outputs, error } = await runNode({ typeVersion: 2, parameters: { resource: 'contact' }, items: [{}], credentials: credentialsFor(sb) });
		expect(error).toBeUndefined();
		expect(outputs[0]!.map((item) => item.json.email).sort()).toEqual(['ada@example.com', 'grace@example.com']);
		const after = ledgerRows(sb);
		expect([after.contacts.length, after.jobs.length]).toEqual([before.contacts.length, before.jobs.length]);
	});

	test('version 2 Import "Define Below" in the mapper: the mapped values land converted to their type', async () => {
		const contact = {
			mappingMode: 'defineBelow',
			value: { first_name: '={{ $json.name }}', email: '={{ $json.mail }}', vip: '={{ $json.vip }}' },
			matchingColumns: [],
			schema: [
				{ id: 'first_name', displayName: 'First Name', type: 'string', required: false, defaultMatch: false, display: true },
				{ id: 'email', displayName: 'Email', type: 'string', required: false, defaultMatch: false, display: true },
				{ id: 'vip', displayName: 'VIP (vip)', type: 'boolean', required: false, defaultMatch: false, display: true },
			],
			attemptToConvertTypes: false,
			convertFieldsToString: false,
		};
		const { error } = await runNode({
			typeVersion: 2,
			parameters: { resource: 'contact', operation: 'import', contact },
			items: [{ name: 'Ana', mail: 'ana@example.com', vip: 'true', email: 'not-this@example.com' }],
			credentials: credentialsFor(sb),
		});
		expect(error).toBeUndefined();
		expect(ledgerRows(sb).contacts.map((c) => [c.first_name, c.email, c.attributes])).toEqual([['Ana', 'ana@example.com', { vip: true }]]);
	});

	test.each([1, 2])('version %i saved as { resource: message } sends one message per item', async (typeVersion) => {
		const parameters = { channel: 'email', to: '={{ $json.email }}', subject: 'Hi', body: '=Hello {{ $json.first_name }}' };
		const { outputs, error } = await runNode({ typeVersion, parameters, items: people, credentials: credentialsFor(sb) });
		expect(error).toBeUndefined();
		expect(outputs[0]!.map((item) => item.json.to)).toEqual(['ada@example.com', 'grace@example.com']);
		expect(ledgerRows(sb).messages.map((m) => [m.to, m.body])).toEqual([
			['ada@example.com', 'Hello Ada'],
			['grace@example.com', 'Hello Grace'],
		]);
	});
});
