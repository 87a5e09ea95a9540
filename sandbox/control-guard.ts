/**
 * Who may use the control routes and the inbox: only this machine's own pages and processes.
 * A foreign Origin (another site in the user's browser) or a foreign Host (DNS rebinding) is refused on
 * every route; changing state also needs the per-process control token and a JSON body, so a
 * cross-site "simple" request can never reach it. No CORS headers are ever sent here.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isJsonContentType } from './http/json-body.ts';
import type { Fail, Reply } from './replies.ts';
import { T, base62, err } from './util.ts';

export const CONTROL_TOKEN_HEADER = 'x-sandbox-token';

export function newControlToken(): string {
  return base62(32);
}

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);

export class ControlGuard {
  private readonly digest: Buffer;
  private readonly fail: Fail;
  private readonly bindHost: string;

  constructor(fail: Fail, token: string, bindHost: string) {
    this.fail = fail;
    this.digest = sha256(token);
    this.bindHost = bindHost.includes(':') && !bindHost.startsWith('[') ? `[${bindHost}]` : bindHost;
  }

  /** Origin and Host: the refusal for a request from elsewhere, or null. Applies to reads and writes. */
  checkSource(req: IncomingMessage): Reply | null {
    const host = String(req.headers.host ?? '');
    const hostname = host.replace(/:\d+$/, '').toLowerCase();
    if (!WILDCARD_HOSTS.has(this.bindHost) && !LOOPBACK_NAMES.has(hostname) && hostname !== this.bindHost.toLowerCase())
      return this.fail(403, err(T.permission, 'request_refused', `Host "${host}" is not this sandbox; use ${this.bindHost}.`));
    const origin = req.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`)
      return this.fail(403, err(T.permission, 'request_refused', 'Control routes refuse requests from other origins (no CORS here).'));
    return null;
  }

  /** The token and a JSON content type, for a request that changes state. */
  checkWrite(req: IncomingMessage): Reply | null {
    const given = req.headers[CONTROL_TOKEN_HEADER];
    if (typeof given !== 'string' || !timingSafeEqual(sha256(given), this.digest))
      return this.fail(401, err(T.auth, 'invalid_control_token', `Send the control token printed at start in the ${CONTROL_TOKEN_HEADER} header.`));
    if (req.method === 'POST' && !isJsonContentType(req))
      return this.fail(400, err(T.invalid, 'request_refused', 'Control requests must be sent with "Content-Type: application/json".', 'Content-Type'));
    return null;
  }
}

function sha256(s: string): Buffer {
  return createHash('sha256').update(s).digest();
}
