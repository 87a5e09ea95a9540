import { ApiError } from './errors.ts';
import { Redactor } from './redaction.ts';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function baseUrlError(message: string): ApiError {
  return new ApiError({ status: 0, type: 'invalid_input', code: 'invalid_base_url', message, param: 'baseUrl' });
}

/**
 * The service's base ends in `/v1` (spec §9). https is required, except plain http on loopback for a
 * local sandbox. A trailing slash is tolerated. Returns the base without trailing slash.
 * A user may paste the key into it: errors never quote it whole (no user info, query or text that is
 * not a URL), and what they quote of it has `secret` (the API key, when known) redacted.
 */
export function normalizeBaseUrl(input: string, secret?: string): string {
  const redactor = new Redactor([secret]);
  const quote = (text: string) => redactor.redact(text);
  const raw = typeof input === 'string' ? input.trim() : '';
  if (!raw) throw baseUrlError('The base URL is empty: set it to the service’s address ending in /v1.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw baseUrlError('The base URL is not a valid URL: it should look like https://api.example.com/v1.');
  }
  if (url.username || url.password) throw baseUrlError('The base URL must not carry a user name or password; the API key goes in the credential.');
  if (url.search || url.hash) throw baseUrlError('The base URL must not carry a query string or fragment.');
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw baseUrlError(`The base URL must use https:// (plain http:// is allowed only on loopback), got "${quote(`${url.protocol}//${url.host}`)}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw baseUrlError(`The base URL must use https://, got "${quote(url.protocol)}".`);
  const path = url.pathname.replace(/\/+$/, '');
  if (!/\/v1$/.test(path)) throw baseUrlError(`The base URL must end in the version segment /v1 (spec §9), got "${quote(`${url.origin}${path || '/'}`)}".`);
  return `${url.origin}${path}`;
}
