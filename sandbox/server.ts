/**
 * The sandbox: a stateful local emulator of the messaging service (`/v1`) plus the control routes
 * (`/__sandbox/...`) used by tests. Node built-ins only. This file wires the HTTP server to the handlers.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiHandler } from './api.ts';
import { initialConfig, loadConfigInput, mergeConfig } from './config.ts';
import { ControlGuard, newControlToken } from './control-guard.ts';
import { controlHandler, createControl } from './control.ts';
import { Faults } from './faults.ts';
import { readBody } from './http/body.ts';
import { sendJson } from './http/headers.ts';
import { answerMalformed } from './http/malformed.ts';
import { Inbox, isInboxPath } from './inbox/routes.ts';
import { splitTarget } from './http/routes.ts';
import { State } from './state.ts';
import type { SandboxConfigInput, SandboxControl } from './types.ts';
import { T, err, newId } from './util.ts';

export type * from './types.ts';
export { demoConfig, demoKeys } from './demo-config.ts';
export { CONTROL_TOKEN_HEADER } from './control-guard.ts';

export interface StartOptions {
  /** Port to listen on; 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A (partial) config merged over the demo config, or the path of a JSON file holding one. */
  config?: SandboxConfigInput | string;
  /** The token the mutating control routes require (header `x-sandbox-token`). Default: random per process. */
  controlToken?: string;
  /** Seconds a committed answer stays replayable under its Idempotency-Key (over the config's idempotency_retention_seconds). */
  idempotencyTtl?: number;
  /** Messages kept in full (over the config's retain_messages); older ones are evicted, their counts stay. */
  retainMessages?: number;
  /** Milliseconds since the epoch; tests inject one to move time (rate windows, idempotency retention, jobs). */
  clock?: () => number;
  /** How a `slow` fault holds a request (default: a real timer); tests inject one that moves `clock`. */
  sleep?: (ms: number) => Promise<void>;
}

export interface Sandbox {
  /** Base URL of the API, e.g. http://127.0.0.1:4010/v1 (no trailing slash). */
  url: string;
  /** e.g. http://127.0.0.1:4010 */
  origin: string;
  /** Sent as `x-sandbox-token` on the mutating control routes (the test helpers do it). */
  controlToken: string;
  control: SandboxControl;
  close(): Promise<void>;
}

export async function start(options: StartOptions = {}): Promise<Sandbox> {
  const host = options.host ?? '127.0.0.1';
  const controlToken = options.controlToken ?? newControlToken();
  if (controlToken.length < 8) throw new Error('controlToken must be at least 8 characters long');
  const config = mergeConfig(initialConfig(loadConfigInput(options.config)), {
    idempotency_retention_seconds: options.idempotencyTtl,
    retain_messages: options.retainMessages,
  });
  const state = new State(config, options.clock);
  const faults = new Faults();
  const control = createControl(state, faults);
  const api = apiHandler(state, faults, options.sleep);
  const guard = new ControlGuard(state.fail, controlToken, host);
  const controlRoutes = controlHandler(state, control, guard);
  const inbox = new Inbox(state, guard);

  async function dispatch(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const body = await readBody(req, state.config.max_body_bytes);
    // The rest of a too-large body is never read, so this connection cannot carry another request.
    if (body.tooLarge) res.setHeader('Connection', 'close');
    const { segs, query } = splitTarget(req.url ?? '/');
    const path = (req.url ?? '/').split('?')[0]!;
    if (isInboxPath(path)) return inbox.handle(req, res, path, requestId);
    if (segs && segs[0] === '' && segs[1] === '__sandbox') return controlRoutes({ req, res, requestId, segs, query, body });
    return api({ req, res, requestId, segs, query, body });
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const requestId = newId('req');
    // The Date header reads the sandbox's clock, as X-RateLimit-Reset does: a client estimating the
    // server's clock from it must see the same time the windows are counted on.
    res.setHeader('Date', new Date(state.now()).toUTCString());
    dispatch(req, res, requestId).catch((e: unknown) => {
      console.error(`[sandbox] ${requestId} ${req.method} ${req.url}: unexpected error`, e);
      if (res.headersSent || res.destroyed) return;
      try {
        sendJson(res, requestId, 500, JSON.stringify(state.fail(500, err(T.api, 'internal_error', 'Unexpected sandbox error; retry once.')).body));
      } catch {
        res.destroy();
      }
    });
  }

  const server = createServer({ keepAliveTimeout: 10_000 }, onRequest);
  answerMalformed(server, state.fail);

  const wanted = options.port ?? 4010;
  await new Promise<void>((resolveListen, reject) => {
    const refuse = (error: NodeJS.ErrnoException): void => reject(error.code === 'EADDRINUSE' ? portInUse(host, wanted) : error);
    server.once('error', refuse);
    server.listen(wanted, host, () => {
      server.off('error', refuse);
      resolveListen();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    controlToken,
    control,
    close: () =>
      new Promise<void>((resolveClose) => {
        inbox.close();
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}

/** A bare EADDRINUSE tells a person nothing: say what probably holds the port and what to do. */
function portInUse(host: string, port: number): Error {
  const error: NodeJS.ErrnoException = new Error(
    `${host}:${port} is already in use, probably by another sandbox (npm run sandbox, npm start or npm run n8n). Stop it, or choose another port.`,
  );
  error.code = 'EADDRINUSE';
  return error;
}
