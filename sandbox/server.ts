/**
 * The sandbox: a stateful local emulator of the messaging service (`/v1`) plus the control routes
 * (`/__sandbox/...`) used by tests. Node built-ins only. This file wires the HTTP server to the handlers.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiHandler } from './api.ts';
import { initialConfig, loadConfigInput } from './config.ts';
import { controlHandler, createControl } from './control.ts';
import { Faults } from './faults.ts';
import { readBody } from './http/body.ts';
import { sendJson } from './http/headers.ts';
import { answerMalformed } from './http/malformed.ts';
import { splitTarget } from './http/routes.ts';
import { State } from './state.ts';
import type { SandboxConfigInput, SandboxControl } from './types.ts';
import { T, err, newId } from './util.ts';

export type * from './types.ts';
export { demoConfig, demoKeys } from './demo-config.ts';

export interface StartOptions {
  /** Port to listen on; 0 picks a free port. Default 4010. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** A (partial) config merged over the demo config, or the path of a JSON file holding one. */
  config?: SandboxConfigInput | string;
}

export interface Sandbox {
  /** Base URL of the API, e.g. http://127.0.0.1:4010/v1 (no trailing slash). */
  url: string;
  /** e.g. http://127.0.0.1:4010 */
  origin: string;
  control: SandboxControl;
  close(): Promise<void>;
}

export async function start(options: StartOptions = {}): Promise<Sandbox> {
  const state = new State(initialConfig(loadConfigInput(options.config)));
  const faults = new Faults();
  const control = createControl(state, faults);
  const api = apiHandler(state, faults);
  const controlRoutes = controlHandler(state, control);

  async function dispatch(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const body = await readBody(req, state.config.max_body_bytes);
    const { segs, query } = splitTarget(req.url ?? '/');
    if (!segs) {
      state.requests++;
      return sendJson(res, requestId, 404, JSON.stringify(state.fail(404, err(T.invalid, 'resource_not_found', 'The path is not valid percent-encoding.')).body));
    }
    if (segs[0] === '' && segs[1] === '__sandbox') return controlRoutes({ req, res, requestId, segs, body });
    return api({ req, res, requestId, segs, query, body });
  }

  function onRequest(req: IncomingMessage, res: ServerResponse): void {
    const requestId = newId('req');
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

  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolveListen, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 4010, host, () => {
      server.off('error', reject);
      resolveListen();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    control,
    close: () =>
      new Promise<void>((resolveClose) => {
        server.close(() => resolveClose());
        server.closeAllConnections();
      }),
  };
}
