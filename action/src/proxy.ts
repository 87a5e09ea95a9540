/**
 * The `proxy` input: one proxy URL for the service's requests, winning over HTTPS_PROXY / HTTP_PROXY
 * (undici's EnvHttpProxyAgent takes it as both its httpProxy and httpsProxy), while NO_PROXY still
 * sends the hosts it lists direct. Credentials in the URL (`http://user:pass@host`) become undici's
 * Proxy-Authorization header and are masked like the API key: they are never shown, even in an error.
 */
import { EnvHttpProxyAgent } from 'undici';
import { InputError } from './inputs.ts';

function parse(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

/** What to mask of a proxy URL: the URL itself and its credentials, as written and decoded. */
export function proxySecrets(raw: string): string[] {
  const url = parse(raw.trim());
  if (!url || (!url.username && !url.password)) return [];
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const secret = url.password || url.username;
  return [...new Set([raw.trim(), secret, decode(secret), `${decode(url.username)}:${decode(url.password)}`])].filter((s) => s.length >= 3);
}

/** Checks the input; '' means "the environment's proxies". The value itself is never echoed (it may hold a password). */
export function validateProxy(raw: string): string {
  const value = raw.trim();
  if (!value) return '';
  const url = parse(value);
  if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname) {
    throw new InputError('proxy', 'must be an http:// or https:// URL such as http://proxy.internal:3128 (the value is not shown: it may hold a password).');
  }
  return value;
}

/** The proxy as a log may show it: scheme, host and port, never its credentials. */
export function proxyForLog(proxy: string): string {
  const url = new URL(proxy);
  return `${url.protocol}//${url.host}`;
}

/** The dispatcher for every request: the explicit proxy when given, else the runner's proxy variables. */
export function proxyDispatcher(proxy: string): EnvHttpProxyAgent {
  return new EnvHttpProxyAgent(proxy ? { httpProxy: proxy, httpsProxy: proxy } : {});
}
