/**
 * The credential and the node description: the credential's `test` request (what n8n's "Test" button
 * sends) and its `authenticate` reach GET /account with the Bearer key; the description carries what n8n's verification asks for.
 */
import './env.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ICredentialDataDecryptedObject, IHttpRequestOptions, INodeTypeDescription } from 'n8n-workflow';
import { MessagingServiceApi } from '../../credentials/MessagingServiceApi.credentials.ts';
import { MessagingService } from '../../nodes/MessagingService/MessagingService.node.ts';
import { testCredential } from './credential-test-runner.ts';
import { useSandbox } from '../sandbox/helpers.ts';

const credential = new MessagingServiceApi();
const description = new MessagingService().description as INodeTypeDescription;
const root = join(__dirname, '..', '..');

describe('the credential test (n8n-core RoutingNode, real HTTP to the sandbox) names the real cause', () => {
	const sandbox = useSandbox();

	test('a good key: Connection successful (with or without a trailing slash on the base URL)', async () => {
		expect(await testCredential({ apiKey: 'sk_test_demo_ok', baseUrl: sandbox.url })).toEqual({ status: 'OK', message: 'Connection successful!' });
		expect(await testCredential({ apiKey: 'sk_test_demo_ok', baseUrl: `${sandbox.url}/` })).toMatchObject({ status: 'OK' });
	});

	test.each([
		['revoked', 'sk_test_demo_revoked', 'api_key_revoked', /revoked.*issue a new key/],
		['expired', 'sk_test_demo_expired', 'api_key_expired', /expired.*issue a new key/],
		['plan expired', 'sk_test_demo_plan_expired', 'subscription_expired', /no running plan.*renew/],
		['suspended', 'sk_test_demo_suspended', 'account_suspended', /suspended.*a new key does not help/],
		['trashed', 'sk_test_demo_trashed', 'account_suspended', /suspended.*a new key does not help/],
		['unknown', 'sk_test_no_such_key', 'invalid_api_key', /matches no issued key/],
	])('a %s key shows the service\'s code and its remedy', async (_label, apiKey, code, remedy) => {
		const result = await testCredential({ apiKey, baseUrl: sandbox.url });
		expect(result.status).toBe('Error');
		expect(result.message.startsWith(`${code}: `)).toBe(true);
		expect(result.message).toMatch(remedy);
		expect(result.message).not.toContain(apiKey);
	});

	test('a wrong base URL (the server, without /v1) says the base URL is not the API address', async () => {
		const result = await testCredential({ apiKey: 'sk_test_demo_ok', baseUrl: sandbox.url.replace(/\/v1$/, '') });
		expect(result).toMatchObject({ status: 'Error' });
		expect(result.message).toMatch(/^resource_not_found: the Base URL .* ends in \/v1/);
	});

	test('every message differs: no two causes read alike', () => {
		const messages = (credential.test!.rules ?? []).map((r) => r.properties.message);
		expect(new Set(messages).size).toBe(messages.length);
		for (const message of messages) expect(message.length).toBeLessThanOrEqual(160);
	});
});

test('the credential: password key field, required base URL, documentation URL, light and dark icons', async () => {
	const key = credential.properties.find((p) => p.name === 'apiKey')!;
	expect(key.typeOptions).toMatchObject({ password: true });
	expect(credential.properties.find((p) => p.name === 'baseUrl')).toMatchObject({ required: true });
	expect(credential.documentationUrl).toMatch(/^https:\/\//);
	const authenticate = credential.authenticate as (credentials: ICredentialDataDecryptedObject, options: IHttpRequestOptions) => Promise<IHttpRequestOptions>;
	const request: IHttpRequestOptions = { url: '/account', headers: { 'Idempotency-Key': 'k1' } };
	expect(await authenticate({ apiKey: 'sk_1', baseUrl: 'http://127.0.0.1' }, request)).toEqual({ url: '/account', headers: { 'Idempotency-Key': 'k1', Authorization: 'Bearer sk_1' } });
	expect(request.headers).toEqual({ 'Idempotency-Key': 'k1' }); // the caller's options are not changed
	const icon = credential.icon as { light: string; dark: string };
	expect(icon.light).not.toBe(icon.dark);
	for (const file of [icon.light, icon.dark]) expect(existsSync(join(root, 'credentials', file.replace(/^file:/, '')))).toBe(true);
});

test('the node description: usable as a tool, themed icons (different files), subtitle, codex in Communication, every operation', () => {
	expect(description.usableAsTool).toBe(true);
	expect(description.subtitle).toContain('$parameter["operation"]');
	const icon = description.icon as { light: string; dark: string };
	const light = readFileSync(join(root, 'nodes/MessagingService', icon.light.replace(/^file:/, '')), 'utf8');
	const dark = readFileSync(join(root, 'nodes/MessagingService', icon.dark.replace(/^file:/, '')), 'utf8');
	expect(light).not.toBe(dark);
	const codex = JSON.parse(readFileSync(join(root, 'nodes/MessagingService/MessagingService.node.json'), 'utf8'));
	expect(codex).toMatchObject({ node: 'n8n-nodes-messaging-service.messagingService' });
	expect(codex.categories).toContain('Communication');
	// Each version shows exactly one Operation per resource (a default that changed is a second, version-gated one).
	const shownIn = (version: number) => (p: (typeof description.properties)[number]) => {
		const gate = p.displayOptions?.show?.['@version'] as Array<number | { _cnd: { gte: number } }> | undefined;
		return !gate || gate.some((g) => (typeof g === 'number' ? g === version : version >= g._cnd.gte));
	};
	for (const version of [1, 2]) {
		const operations = description.properties
			.filter((p) => p.name === 'operation' && shownIn(version)(p))
			.flatMap((p) => (p.options as { value: string }[]).map((o) => `${p.displayOptions!.show!.resource![0]}.${o.value}`));
		expect(operations.sort()).toEqual(['account.get', 'contact.getAll', 'contact.import', 'contactAttribute.getAll', 'job.get', 'job.wait', 'message.get', 'message.send', 'message.sendBatch']);
	}
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	expect(pkg.n8n).toEqual({ n8nNodesApiVersion: 1, strict: true, nodes: ['dist/nodes/MessagingService/MessagingService.node.js'], credentials: ['dist/credentials/MessagingServiceApi.credentials.js'] });
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(pkg.dependencies ?? {}).toEqual({});
});
