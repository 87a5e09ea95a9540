import { ApiError } from './errors.ts';

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/i;

function baseUrlError(message: string): ApiError {
  return new ApiError({ status: 0, type: 'invalid_input', code: 'invalid_base_url', message, param: 'baseUrl' });
}

/**
 * The service's base ends in `/v1` (spec §9). https is required, except plain http on loopback for a
 * local sandbox. A trailing slash is tolerated. Returns the base without trailing slash.
 */
export function normalizeBaseUrl(input: string): string {
  const raw = typeof input === 'string' ? input.trim() : '';
  if (!raw) throw baseUrlError('The base URL is empty: set it to the service’s address ending in /v1.');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw baseUrlError(`The base URL "${raw}" is not a valid URL.`);
  }
  if (url.username || url.password) throw baseUrlError('The base URL must not carry a user name or password; the API key goes in the credential.');
  if (url.search || url.hash) throw baseUrlError('The base URL must not carry a query string or fragment.');
  if (url.protocol === 'http:' && !LOOPBACK.test(url.hostname)) {
    throw baseUrlError(`The base URL must use https:// (plain http:// is allowed only on loopback), got "${url.protocol}//${url.host}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw baseUrlError(`The base URL must use https://, got "${url.protocol}".`);
  const path = url.pathname.replace(/\/+$/, '');
  if (!/\/v1$/.test(path)) throw baseUrlError(`The base URL must end in the version segment /v1 (spec §9), got "${url.origin}${path || '/'}".`);
  return `${url.origin}${path}`;
}
