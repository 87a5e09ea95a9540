/**
 * Runs the node through n8n-core's real WorkflowExecute and request helpers (real HTTP to the sandbox):
 * a seed node emits the test items → the Messaging Service node. The credentials helper applies the
 * credential's `authenticate` as the n8n app does (n8n-core does not).
 */
import './env.ts';
import { ExecuteContext, ExecutionLifecycleHooks, WorkflowExecute } from 'n8n-core';
import {
	createRunExecutionData,
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
} from 'n8n-workflow';
import type {
	ICredentialDataDecryptedObject,
	ICredentials,
	ICredentialType,
	IDataObject,
	IExecuteData,
	IExecuteFunctions,
	IHttpRequestOptions,
	INode,
	INodeCredentialsDetails,
	INodeExecutionData,
	INodeParameters,
	INodeProperties,
	INodeType,
	INodeTypes,
	IRun,
	IVersionedNodeType,
	IWorkflowExecuteAdditionalData,
	WorkflowExecuteMode,
} from 'n8n-workflow';
import { MessagingServiceApi } from '../../credentials/MessagingServiceApi.credentials.ts';
import { MessagingService } from '../../nodes/MessagingService/MessagingService.node.ts';

export const NODE_TYPE = 'n8n-nodes-messaging-service.messagingService';
export const NODE_NAME = 'Messaging Service';
const SEED_TYPE = 'test.seed';

/** Emits the items given in its `items` parameter (a JSON array), one item per element. */
class Seed implements INodeType {
	description = {
		displayName: 'Seed',
		name: 'seed',
		group: ['input'],
		version: 1,
		description: 'Test items',
		defaults: { name: 'Seed' },
		inputs: ['main'],
		outputs: ['main'],
		properties: [
			{ displayName: 'Items', name: 'items', type: 'json', default: '[]' },
		] as INodeProperties[],
	} as INodeType['description'];

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const raw = this.getNodeParameter('items', 0) as string;
		const list = JSON.parse(raw) as IDataObject[];
		return [list.map((json, item) => ({ json, pairedItem: { item: 0 }, index: item }))];
	}
}

const nodeTypesByName: Record<string, INodeType | IVersionedNodeType> = {
	[NODE_TYPE]: new MessagingService(),
	[SEED_TYPE]: new Seed(),
};

export const nodeTypes: INodeTypes = {
	getByName: (type) => nodeTypesByName[type]!,
	getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(nodeTypesByName[type]!, version),
	getKnownTypes: () => ({}),
} as INodeTypes;

const credentialType: ICredentialType = new MessagingServiceApi();

export interface TestCredentials {
	apiKey: string;
	baseUrl: string;
}

/** Decrypted data from memory; `authenticate` calls the credential's own function, as the app does. */
export class TestCredentialsHelper extends ICredentialsHelper {
	private readonly data: TestCredentials;
	/** Every Authorization header value this helper produced (to prove the key went only there). */
	readonly authorizations: string[] = [];
	/** How many times the node's credentials were read and decrypted. */
	reads = 0;

	constructor(data: TestCredentials) {
		super();
		this.data = data;
	}

	getParentTypes(): string[] {
		return [];
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(credentials: ICredentialDataDecryptedObject, typeName: string, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		if (typeName !== credentialType.name) throw new Error(`unknown credential type ${typeName}`);
		if (typeof credentialType.authenticate !== 'function') throw new Error('the credential\'s authenticate is not a function');
		const authenticated = await credentialType.authenticate(credentials, requestOptions);
		const authorization = Object.entries(authenticated.headers ?? {}).find(([name]) => name.toLowerCase() === 'authorization')?.[1];
		if (typeof authorization === 'string') this.authorizations.push(authorization);
		return authenticated;
	}

	async preAuthentication(): Promise<undefined> {
		return undefined;
	}

	async runPreAuthentication(): Promise<undefined> {
		return undefined;
	}

	async getCredentials(): Promise<ICredentials> {
		throw new Error('not used');
	}

	async getDecrypted(_a: unknown, details: INodeCredentialsDetails, type: string): Promise<ICredentialDataDecryptedObject> {
		if (type !== credentialType.name) throw new Error(`unknown credential type ${type} (${details.name})`);
		this.reads += 1;
		return { ...this.data };
	}

	async updateCredentials(): Promise<void> {}

	async updateCredentialsOauthTokenData(): Promise<void> {}

	getCredentialsProperties(): INodeProperties[] {
		return credentialType.properties;
	}
}

export interface NodeSettings {
	onError?: 'stopWorkflow' | 'continueRegularOutput' | 'continueErrorOutput';
	retryOnFail?: boolean;
	maxTries?: number;
	waitBetweenTries?: number;
}

export interface RunOptions extends NodeSettings {
	parameters: INodeParameters;
	items: Array<Record<string, unknown>>;
	credentials: TestCredentials;
	executionId?: string;
	/** Fixed node id (it goes into the derived idempotency keys). */
	nodeId?: string;
	/**
	 * The output of a root node before the seed, as a trigger's (e.g. a schedule tick's timestamp, or a
	 * Manual Trigger's `{}`); without it the seed itself is the root and its items are the trigger data.
	 */
	trigger?: Record<string, unknown>;
	/** The execution's mode (n8n's recoveries: 'retry', 'integrated' for a sub-workflow, 'webhook'…). */
	mode?: WorkflowExecuteMode;
	/** The node's saved typeVersion (1 unless given: the suites written for version 1 set every parameter they rely on). */
	typeVersion?: number;
}

export interface RunOutcome {
	run: IRun;
	/** The node's outputs in the last run: [main] or [main, error] with continueErrorOutput. */
	outputs: INodeExecutionData[][];
	/** The node's error (serialized), when it failed. */
	error?: Record<string, unknown> & { message: string };
	/** Every Authorization header value sent. */
	authorizations: string[];
	/** How many times the credentials were read and decrypted. */
	credentialReads: number;
	/** The hints the node added for the editor (n8n keeps them only when the node returns). */
	hints: string[];
}

export function buildWorkflow(options: RunOptions): { workflow: Workflow; seed: INode; node: INode; root: INode } {
	const seed: INode = {
		id: 'seed-node-id',
		name: 'Seed',
		type: SEED_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: { items: JSON.stringify(options.items) },
	};
	const trigger: INode | undefined = options.trigger && { id: 'trigger-node-id', name: 'Trigger', type: SEED_TYPE, typeVersion: 1, position: [-200, 0], parameters: { items: JSON.stringify([options.trigger]) } };
	const node: INode = {
		id: options.nodeId ?? 'messaging-node-id',
		name: NODE_NAME,
		type: NODE_TYPE,
		typeVersion: options.typeVersion ?? 1,
		position: [200, 0],
		parameters: options.parameters,
		credentials: { messagingServiceApi: { id: 'cred-1', name: 'Messaging Service (sandbox)' } },
		onError: options.onError,
		retryOnFail: options.retryOnFail,
		maxTries: options.maxTries,
		waitBetweenTries: options.waitBetweenTries,
	};
	const workflow = new Workflow({
		id: 'wf-node-test',
		name: 'node test',
		nodes: trigger ? [trigger, seed, node] : [seed, node],
		connections: {
			...(trigger ? { Trigger: { main: [[{ node: 'Seed', type: 'main' as const, index: 0 }]] } } : {}),
			Seed: { main: [[{ node: NODE_NAME, type: 'main', index: 0 }]] },
		},
		active: false,
		nodeTypes,
		settings: { executionOrder: 'v1' },
	});
	return { workflow, seed, node, root: trigger ?? seed };
}

export function additionalDataFor(helper: TestCredentialsHelper, executionId: string, workflow: Workflow, mode: WorkflowExecuteMode = 'manual'): IWorkflowExecuteAdditionalData {
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name,
		nodes: Object.values(workflow.nodes),
		connections: workflow.connectionsBySourceNode,
		active: false,
		activeVersionId: null,
		isArchived: false,
		createdAt: new Date(),
		updatedAt: new Date(),
	} as never);
	return {
		credentialsHelper: helper,
		hooks,
		executionId,
		currentNodeExecutionIndex: 0,
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		formBaseUrl: 'http://localhost:5678/form',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		formTestBaseUrl: 'http://localhost:5678/form-test',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		mcpBaseUrl: 'http://localhost:5678/mcp',
		mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('not used');
		},
		getRunExecutionData: async () => undefined,
		getRuntimeCredential: async () => undefined,
		logAiEvent: () => {},
	} as unknown as IWorkflowExecuteAdditionalData;
}

let executionCounter = 0;

/** Runs [Trigger →] Seed → Messaging Service through WorkflowExecute (a manual execution unless `mode`). */
export async function runNode(options: RunOptions): Promise<RunOutcome> {
	const { workflow, root } = buildWorkflow(options);
	const helper = new TestCredentialsHelper(options.credentials);
	const executionId = options.executionId ?? `exec-${process.pid}-${++executionCounter}-${Date.now()}`;
	const mode = options.mode ?? 'manual';
	const additionalData = additionalDataFor(helper, executionId, workflow, mode);
	const run = await new WorkflowExecute(additionalData, mode).run({ workflow, startNode: root });
	const taskData = run.data.resultData.runData[NODE_NAME]?.at(-1);
	const outputs = (taskData?.data?.main ?? []).map((items) => items ?? []) as INodeExecutionData[][];
	const error = (taskData?.error ?? undefined) as RunOutcome['error'];
	return { run, outputs, error, authorizations: helper.authorizations, credentialReads: helper.reads, hints: (taskData?.hints ?? []).map((hint) => hint.message) };
}

/**
 * A Retry of a crashed execution as n8n 2.41.1 runs it after its crash recovery: the recovery left one
 * `{ isArtificialRecoveredEventItem: true }` item as the run of every node that had run, and the Retry
 * starts again at the root, so the root's and the seed's real output are their SECOND runs.
 */
export async function runNodeAfterCrashRecovery(options: RunOptions & { trigger: Record<string, unknown> }): Promise<RunOutcome> {
	const { workflow, root } = buildWorkflow(options);
	const helper = new TestCredentialsHelper(options.credentials);
	const executionId = options.executionId ?? `recovered-${process.pid}-${++executionCounter}`;
	const additionalData = additionalDataFor(helper, executionId, workflow, 'retry');
	const placeholder = () => [{ startTime: 0, executionTime: 0, executionIndex: 0, source: [], data: { main: [[{ json: { isArtificialRecoveredEventItem: true } }]] } }];
	const runExecutionData = createRunExecutionData({
		resultData: { runData: { [root.name]: placeholder(), Seed: placeholder() } },
		executionData: { nodeExecutionStack: [{ node: root, data: { main: [[{ json: {} }]] }, source: null }] },
	} as never);
	const run = await new WorkflowExecute(additionalData, 'retry', runExecutionData).processRunExecutionData(workflow);
	const taskData = run.data.resultData.runData[NODE_NAME]?.at(-1);
	const outputs = (taskData?.data?.main ?? []).map((items) => items ?? []) as INodeExecutionData[][];
	return { run, outputs, error: (taskData?.error ?? undefined) as RunOutcome['error'], authorizations: helper.authorizations, credentialReads: helper.reads, hints: (taskData?.hints ?? []).map((hint) => hint.message) };
}

/**
 * Calls the node's execute() directly in an ExecuteContext (what the node itself returns, before
 * WorkflowExecute fills in anything), with the given input items.
 */
export async function executeDirectly(options: RunOptions): Promise<INodeExecutionData[][]> {
	const { workflow, node } = buildWorkflow(options);
	const helper = new TestCredentialsHelper(options.credentials);
	const executionId = options.executionId ?? `direct-${process.pid}-${++executionCounter}`;
	const additionalData = additionalDataFor(helper, executionId, workflow);
	const input: INodeExecutionData[] = options.items.map((json, item) => ({ json: json as IDataObject, pairedItem: { item } }));
	const executeData: IExecuteData = { node, data: { main: [input] }, source: { main: [{ previousNode: 'Seed' }] } };
	const runExecutionData = createRunExecutionData({ resultData: { runData: { Seed: [{ startTime: 0, executionTime: 0, executionIndex: 0, source: [], data: { main: [input] } }] } } } as never);
	const context = new ExecuteContext(workflow, node, additionalData, 'manual', runExecutionData, 0, input, { main: [input] }, executeData, []);
	const nodeType = nodeTypes.getByNameAndVersion(NODE_TYPE, 1) as INodeType;
	return (await nodeType.execute!.call(context as unknown as IExecuteFunctions)) as INodeExecutionData[][];
}
