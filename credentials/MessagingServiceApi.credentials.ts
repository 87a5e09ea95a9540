import type { IAuthenticate, ICredentialTestRequest, ICredentialType, Icon, INodeProperties } from 'n8n-workflow';
import { CREDENTIAL_TEST_RULES } from './credential-test-rules.ts';

/**
 * The service's API key (sent only as `Authorization: Bearer …`, spec §5) and its base URL (ending in
 * `/v1`, spec §9). n8n adds the header through `authenticate`; the node never reads the key for a request.
 */
export class MessagingServiceApi implements ICredentialType {
	name = 'messagingServiceApi';

	displayName = 'Messaging Service API';

	icon: Icon = {
		light: 'file:../nodes/MessagingService/messagingService.svg',
		dark: 'file:../nodes/MessagingService/messagingService.dark.svg',
	};

	documentationUrl = 'https://github.com/messaging-service/n8n-nodes-messaging-service/blob/main/docs/n8n.md#credential';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			description: 'The API key from the service dashboard. Its scopes are fixed when it is issued.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			default: '',
			required: true,
			placeholder: 'https://api.example.com/v1',
			description: 'Address of the API, ending in /v1 (https; http only for a local sandbox on 127.0.0.1)',
		},
	];

	/**
	 * A function, not a generic block: n8n resolves a generic block's `{{$credentials.apiKey}}` through its
	 * expression engine on every request (about 4 ms each in n8n 2.41.1, more than the rest of a call).
	 */
	authenticate: IAuthenticate = async (credentials, requestOptions) => ({
		...requestOptions,
		headers: { ...requestOptions.headers, Authorization: `Bearer ${String(credentials.apiKey ?? '')}` },
	});

	/**
	 * n8n's declarative test shows only the HTTP reason ("Unauthorized") for a failed request, so a revoked,
	 * an expired and a plan-expired key would all read alike. The request therefore keeps error answers
	 * as its result (`ignoreHttpStatusErrors`) and the rules name the service's code and its remedy.
	 */
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl}}',
			url: '/account',
			method: 'GET',
			ignoreHttpStatusErrors: true,
		},
		rules: CREDENTIAL_TEST_RULES,
	};
}
