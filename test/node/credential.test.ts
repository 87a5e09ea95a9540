/**
 * The credential and the node description: the credential's `test` request (what n8n's "Test" button
 * sends) and its `authenticate` block, resolved with n8n's expression engine, reach GET /account with the
 * Bearer key; the description carries what n8n's verification asks for.
 */
import './env.ts';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Workflow } from 'n8n-workflow';
import type { IAuthenticateGeneric, ICredentialDataDecryptedObject, INodeTypeDescription } from 'n8n-workflow';
import { MessagingServiceApi } from '../../credentials/MessagingServiceApi.credentials.ts';
import { MessagingService } from '../../nodes/MessagingService/MessagingService.node.ts';
import { nodeTypes } from './harness.ts';
import { startSandbox } from './support.ts';

const credential = new MessagingServiceApi();
const description = new MessagingService().description as INodeTypeDescription;
const root = join(__dirname, '..', '..');

function resolve(value: string, credentials: ICredentialDataDecryptedObject): string {
	const workflow = new Workflow({ nodes: [{ id: 'n', name: 'N', type: 'test.seed', typeVersion: 1, position: [0, 0], parameters: {} }], connections: {}, active: false, nodeTypes });
	return workflow.expression.getParameterValue(value, null, 0, 0, 'N', [], 'internal', { $credentials: credentials } as never) as string;
}

/** What n8n's credential test does: the test request with the authenticate block applied. */
async function credentialTest(data: ICredentialDataDecryptedObject): Promise<number> {
	const request = credential.test!.request;
	const base = resolve(request.baseURL as string, data).replace(/\/+$/, '');
	const headers = Object.fromEntries(
		Object.entries((credential.authenticate as IAuthenticateGeneric).properties.headers ?? {}).map(([k, v]) => [k, resolve(v as string, data)]),
	);
	const response = await fetch(`${base}${request.url}`, { method: request.method ?? 'GET', headers });
	return response.status;
}

test('the credential test request is GET {baseUrl}/account with the Bearer key: 200 for a good key, 401 for a revoked one', async () => {
	const sb = await startSandbox();
	try {
		expect(credential.test!.request).toMatchObject({ url: '/account', method: 'GET' });
		expect(await credentialTest({ apiKey: 'sk_test_demo_ok', baseUrl: sb.url })).toBe(200);
		expect(await credentialTest({ apiKey: 'sk_test_demo_ok', baseUrl: `${sb.url}/` })).toBe(200);
		expect(await credentialTest({ apiKey: 'sk_test_demo_revoked', baseUrl: sb.url })).toBe(401);
	} finally {
		await sb.close();
	}
});

test('the credential: password key field, required base URL, documentation URL, light and dark icons', () => {
	const key = credential.properties.find((p) => p.name === 'apiKey')!;
	expect(key.typeOptions).toMatchObject({ password: true });
	expect(credential.properties.find((p) => p.name === 'baseUrl')).toMatchObject({ required: true });
	expect(credential.documentationUrl).toMatch(/^https:\/\//);
	expect(resolve((credential.authenticate as IAuthenticateGeneric).properties.headers!.Authorization as string, { apiKey: 'k' })).toBe('Bearer k');
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
	expect(codex).toMatchObject({ node: 'n8n-nodes-messaging-service.messagingService', categories: ['Communication'] });
	const operations = description.properties
		.filter((p) => p.name === 'operation')
		.flatMap((p) => (p.options as { value: string }[]).map((o) => `${p.displayOptions!.show!.resource![0]}.${o.value}`));
	expect(operations.sort()).toEqual(['account.get', 'contact.getAll', 'contact.import', 'contactAttribute.getAll', 'job.get', 'job.wait', 'message.get', 'message.send', 'message.sendBatch']);
	const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
	expect(pkg.n8n).toEqual({ n8nNodesApiVersion: 1, nodes: ['dist/nodes/MessagingService/MessagingService.node.js'], credentials: ['dist/credentials/MessagingServiceApi.credentials.js'] });
	expect(pkg.peerDependencies).toEqual({ 'n8n-workflow': '*' });
	expect(pkg.dependencies ?? {}).toEqual({});
});
