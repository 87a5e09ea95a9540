/**
 * What the credential's "Test" shows for each answer of `GET /account` that is not an account: the
 * service's error code (spec §7) and what to do about it. n8n checks the rules in order and shows the
 * first whose `key` (a path into the response body) equals `value`.
 */
import type { IAuthenticateRuleResponseSuccessBody } from 'n8n-workflow';

const byCode: Record<string, string> = {
	missing_api_key: 'missing_api_key: no API key was sent. Paste the key into the API Key field.',
	invalid_api_key: 'invalid_api_key: the service knows no such key. Check that the key was copied whole.',
	api_key_revoked: 'api_key_revoked: this API key was revoked, for good. Issue a new key and paste it here.',
	api_key_expired: 'api_key_expired: this API key has expired. Issue a new key and paste it here.',
	subscription_expired: 'subscription_expired: the account has no running plan. Renew the plan; this same key works again then.',
	account_suspended: 'account_suspended: the account is suspended, in the trash or being deleted. A new key does not help; contact the service.',
	insufficient_scope: 'insufficient_scope: the key may not read the account. Issue a key with the scopes the workflow needs.',
	resource_not_found: 'resource_not_found: the Base URL has no /account, so it is not the API address. Use the address that ends in /v1.',
	method_not_allowed: 'method_not_allowed: the Base URL does not lead to the API. Use the address that ends in /v1.',
	rate_limit_exceeded: 'rate_limit_exceeded: too many requests this minute, the key was not checked. Test again in a minute.',
	internal_error: 'internal_error: the service failed to answer. Test again in a moment.',
};

/** Families of errors not listed above, by `type` (spec §7 names two). */
const byType: Record<string, string> = {
	authentication_error: 'The service refused the API key (authentication_error). Check the key, or issue a new one.',
	invalid_request_error: 'The service refused the test request (invalid_request_error). Check that the Base URL is the API address ending in /v1.',
};

export const CREDENTIAL_TEST_RULES: IAuthenticateRuleResponseSuccessBody[] = [
	...Object.entries(byCode).map(([value, message]) => ({ type: 'responseSuccessBody' as const, properties: { key: 'error.code', value, message } })),
	...Object.entries(byType).map(([value, message]) => ({ type: 'responseSuccessBody' as const, properties: { key: 'error.type', value, message } })),
];
