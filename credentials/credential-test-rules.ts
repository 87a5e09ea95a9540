/**
 * What the credential's "Test" shows for each answer of `GET /account` that is not an account: the
 * service's error code (spec §7) and what to do about it. n8n checks the rules in order and shows the
 * first whose `key` (a path into the response body) equals `value`.
 */
import type { IAuthenticateRuleResponseSuccessBody } from 'n8n-workflow';
import { remedyFor } from '../src/index.ts';

/** Causes whose remedy is the same wherever they appear: the shared wording (src/errors.ts). */
const SHARED = ['invalid_api_key', 'api_key_revoked', 'api_key_expired', 'subscription_expired', 'account_suspended', 'insufficient_scope'];

/** Causes that mean something particular on the credential screen (a wrong Base URL, the test itself). */
const ON_THIS_SCREEN: Record<string, string> = {
	missing_api_key: 'missing_api_key: no API key was sent. Paste the key into the API Key field.',
	resource_not_found: 'resource_not_found: the Base URL has no /account, so it is not the API address. Use the address that ends in /v1.',
	method_not_allowed: 'method_not_allowed: the Base URL does not lead to the API. Use the address that ends in /v1.',
	rate_limit_exceeded: 'rate_limit_exceeded: too many requests this minute, the key was not checked. Test again in a minute.',
	internal_error: 'internal_error: the service failed to answer. Test again in a moment.',
};

const byCode: Record<string, string> = { ...Object.fromEntries(SHARED.map((code) => [code, `${code}: ${remedyFor(code)}`])), ...ON_THIS_SCREEN };

/** Families of errors not listed above, by `type` (spec §7 names two). */
const byType: Record<string, string> = {
	authentication_error: 'The service refused the API key (authentication_error). Check the key, or issue a new one.',
	invalid_request_error: 'The service refused the test request (invalid_request_error). Check that the Base URL is the API address ending in /v1.',
};

export const CREDENTIAL_TEST_RULES: IAuthenticateRuleResponseSuccessBody[] = [
	...Object.entries(byCode).map(([value, message]) => ({ type: 'responseSuccessBody' as const, properties: { key: 'error.code', value, message } })),
	...Object.entries(byType).map(([value, message]) => ({ type: 'responseSuccessBody' as const, properties: { key: 'error.type', value, message } })),
];
