/**
 * The credential's "Test" button as n8n 2.41.1 runs a declarative `test` (n8n's CredentialsTester.
 * runRequestTest, which lives in the n8n app, not in n8n-core): the test request goes through n8n-core's
 * own RoutingNode (real HTTP, the credential's `authenticate` block applied), then the same verdict:
 * an HTTP failure shows its reason phrase or a matching `responseCode` rule, a connection failure its
 * code, and an answer is checked against the `responseSuccessBody` rules in order.
 */
import './env.ts';
import { ExecuteContext, RoutingNode } from 'n8n-core';
import { createRunExecutionData, Workflow } from 'n8n-workflow';
import type { ICredentialDataDecryptedObject, ICredentialTestRequest, INode, INodeCredentialTestResult, INodeType, INodeTypes } from 'n8n-workflow';
import { MessagingServiceApi } from '../../credentials/MessagingServiceApi.credentials.ts';
import { additionalDataFor, TestCredentialsHelper } from './harness.ts';
import type { TestCredentials } from './harness.ts';

const credentialType = new MessagingServiceApi();

/** lodash's `get` for the dotted keys the rules use (n8n evaluates them with lodash). */
function get(value: unknown, path: string): unknown {
	return path.split('.').reduce<unknown>((at, key) => (at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), value);
}

export async function testCredential(data: TestCredentials): Promise<INodeCredentialTestResult> {
	const testRequest = credentialType.test as ICredentialTestRequest;
	const probe = {
		description: {
			displayName: 'Temp',
			name: 'temp',
			group: ['transform'],
			version: 1,
			description: '',
			defaults: {},
			inputs: ['main'],
			outputs: ['main'],
			credentials: [{ name: credentialType.name, required: true }],
			properties: [{ displayName: 'Temp', name: 'temp', type: 'string', routing: { request: testRequest.request }, default: '' }],
		},
	} as unknown as INodeType;
	const node: INode = {
		id: 'temp',
		name: 'Temp-Node',
		type: 'temp',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { [credentialType.name]: { id: 'cred', name: 'test' } },
	};
	const nodeTypes = { getByName: () => probe, getByNameAndVersion: () => probe, getKnownTypes: () => ({}) } as unknown as INodeTypes;
	const workflow = new Workflow({ nodes: [node], connections: {}, active: false, nodeTypes });
	const additionalData = additionalDataFor(new TestCredentialsHelper(data), 'credential-test', workflow);
	const inputData = { main: [[{ json: {} }]] };
	const context = new ExecuteContext(workflow, node, additionalData, 'internal', createRunExecutionData(), 0, [], inputData, { node, data: {}, source: null }, []);
	const decrypted = { id: 'cred', name: 'test', type: credentialType.name, data: data as unknown as ICredentialDataDecryptedObject };
	let response;
	try {
		response = await new RoutingNode(context, probe, decrypted).runNode();
	} catch (error) {
		const e = error as { message: string; cause?: { code?: string; response?: { status: number; statusText?: string } } };
		if (e.cause?.response) {
			for (const rule of testRequest.rules ?? []) {
				if (rule.type === 'responseCode' && rule.properties.value === e.cause.response.status) return { status: 'Error', message: rule.properties.message };
			}
			return { status: 'Error', message: e.cause.response.statusText || `Received HTTP status code: ${e.cause.response.status}` };
		}
		if (e.cause?.code) return { status: 'Error', message: e.cause.code };
		return { status: 'Error', message: e.message };
	}
	for (const rule of testRequest.rules ?? []) {
		if (rule.type === 'responseSuccessBody' && get(response?.[0]?.[0]?.json, rule.properties.key) === rule.properties.value) {
			return { status: 'Error', message: rule.properties.message };
		}
	}
	return { status: 'OK', message: 'Connection successful!' };
}
