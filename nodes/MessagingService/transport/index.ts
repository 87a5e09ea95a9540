/**
 * The n8n Runtime of the shared client: requests go through n8n's own HTTP stack with the credential's
 * `authenticate` function adding `Authorization: Bearer …` (the client gets no key), waits through
 * n8n-workflow's `sleep`. Status, headers and the raw body are read here so the shared layer decides
 * about errors, retries and pacing by the service's `code` — never through n8n's own error wrapping.
 */
import type { IAdditionalCredentialOptions, ICredentialDataDecryptedObject, IExecuteFunctions, IHttpRequestOptions, ILoadOptionsFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';
import { MessagingClient, sha256Hex } from '../../../src/index.ts';
import type { ClientEvent, HttpRequest, HttpResponse, Runtime } from '../../../src/index.ts';

export const CREDENTIAL_TYPE = 'messagingServiceApi';

/** An execution, or the editor loading a resource mapper's fields. */
export type ClientHost = IExecuteFunctions | ILoadOptionsFunctions;

interface FullResponse {
	statusCode?: number;
	headers?: unknown;
	body?: unknown;
}

function headerValue(value: unknown): string | undefined {
	if (value === undefined || value === null) return undefined;
	if (Array.isArray(value)) return value.map(String).join(', ');
	return String(value);
}

/** Axios hands back an AxiosHeaders object (or a plain one); the layer wants lower-case names. */
export function lowerCaseHeaders(raw: unknown): Record<string, string | undefined> {
	const source =
		raw && typeof (raw as { toJSON?: unknown }).toJSON === 'function'
			? ((raw as { toJSON: () => unknown }).toJSON() as Record<string, unknown>)
			: ((raw ?? {}) as Record<string, unknown>);
	const headers: Record<string, string | undefined> = {};
	for (const [name, value] of Object.entries(source)) headers[name.toLowerCase()] = headerValue(value);
	return headers;
}

/** The body as text: asked for as text, but tolerate a parsed object or bytes. */
export function bodyText(body: unknown): string {
	if (body === undefined || body === null) return '';
	if (typeof body === 'string') return body;
	if (body instanceof Uint8Array) return new TextDecoder().decode(body);
	if (body instanceof ArrayBuffer) return new TextDecoder().decode(new Uint8Array(body));
	return JSON.stringify(body);
}

function abortError(): Error {
	const error = new Error('The operation was cancelled.');
	error.name = 'AbortError';
	return error;
}

/** n8n-workflow's `sleep`, cut short when the execution is cancelled. */
export async function waitFor(ms: number, signal?: AbortSignal): Promise<void> {
	if (signal?.aborted) throw abortError();
	if (!signal) return await sleep(ms);
	await new Promise<void>((resolve, reject) => {
		const onAbort = () => reject(abortError());
		signal.addEventListener('abort', onAbort, { once: true });
		void sleep(ms).then(() => {
			signal.removeEventListener('abort', onAbort);
			resolve();
		});
	});
}

/**
 * The runtime of one execution. `credentials` (decrypted once, by createClient) are handed to each request,
 * so n8n does not read and decrypt them again from its database per call; n8n still applies them (the
 * credential's `authenticate`), and reads them itself when none are given.
 */
export function n8nRuntime(ctx: ClientHost, credentials?: ICredentialDataDecryptedObject): Runtime {
	const node = ctx.getNode();
	const known = node.credentials?.[CREDENTIAL_TYPE];
	const given: IAdditionalCredentialOptions | undefined =
		credentials && known ? { credentialsDecrypted: { id: known.id ?? '', name: known.name, type: CREDENTIAL_TYPE, data: credentials } } : undefined;
	return {
		async transport(request: HttpRequest): Promise<HttpResponse> {
			const options: IHttpRequestOptions = {
				method: request.method,
				url: request.url,
				headers: request.headers,
				returnFullResponse: true,
				ignoreHttpStatusErrors: true,
				json: false,
				encoding: 'text',
			};
			if (request.body !== undefined) options.body = request.body;
			// A wait's deadline bounds each request inside it, and a cancelled execution ends the one in flight.
			if (request.timeoutMs !== undefined) options.timeout = request.timeoutMs;
			if (request.signal) options.abortSignal = request.signal;
			const response = (await ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_TYPE, options, given)) as FullResponse;
			return {
				status: typeof response?.statusCode === 'number' ? response.statusCode : 0,
				headers: lowerCaseHeaders(response?.headers),
				body: bodyText(response?.body),
			};
		},
		sleep: waitFor,
		now: () => Date.now(),
		random: () => Math.random(),
	};
}

export interface NodeClientOptions {
	/** Most time one operation may wait for rate windows and Retry-After. */
	maxWaitMs: number;
	onEvent?: (event: ClientEvent) => void;
}

/**
 * The client for one execution of the node. The key is read only to derive the limiter id (a hash:
 * every node instance using one key shares one limiter in this process) and to redact it.
 */
export async function createClient(ctx: ClientHost, options: NodeClientOptions): Promise<MessagingClient> {
	const credentials = await ctx.getCredentials(CREDENTIAL_TYPE);
	const apiKey = typeof credentials?.apiKey === 'string' ? credentials.apiKey.trim() : '';
	return new MessagingClient({
		baseUrl: typeof credentials?.baseUrl === 'string' ? credentials.baseUrl : '',
		runtime: n8nRuntime(ctx, credentials),
		limiterId: sha256Hex(apiKey),
		// n8n's credential adds the Authorization header; the client still needs the key to redact it
		// from whatever the service or n8n's HTTP stack hands back.
		redactKey: apiKey,
		maxWaitMs: options.maxWaitMs,
		userAgent: 'n8n-nodes-messaging-service',
		onEvent: options.onEvent,
	});
}
