/** The control surface (/__sandbox/... over HTTP, `Sandbox.control` in process): ledger, faults, reset, config. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigError } from './config.ts';
import { FaultError } from './faults.ts';
import type { Faults } from './faults.ts';
import type { RawBody } from './http/body.ts';
import { sendJson } from './http/headers.ts';
import { ledger, summary } from './ledger.ts';
import type { State } from './state.ts';
import type { FaultInput, SandboxConfigInput, SandboxControl } from './types.ts';
import { T, err, isPlainObject } from './util.ts';

export function createControl(state: State, faults: Faults): SandboxControl {
  return {
    ledger: () => ledger(state),
    summary: () => summary(state),
    addFault: (rule: FaultInput) => faults.add(rule),
    faults: () => faults.list(),
    clearFaults: () => faults.clear(),
    reset: () => {
      state.reset();
      faults.clear();
    },
    configure: (patch) => state.configure(patch),
    config: () => structuredClone(state.config),
  };
}

const ROUTES: Record<string, string[]> = {
  ledger: ['GET'],
  'ledger/summary': ['GET'],
  faults: ['GET', 'POST', 'DELETE'],
  reset: ['POST'],
  config: ['GET', 'POST'],
};

export interface ControlRequest {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  segs: string[];
  body: RawBody;
}

export function controlHandler(state: State, control: SandboxControl): (r: ControlRequest) => void {
  return ({ req, res, requestId, segs, body: rawBody }) => {
    const method = req.method ?? 'GET';
    const path = segs.slice(2).join('/');
    const ok = (status: number, body: unknown): void => sendJson(res, requestId, status, JSON.stringify(body));
    const bad = (status: number, code: string, message: string, param?: string, headers?: Record<string, string>): void =>
      sendJson(res, requestId, status, JSON.stringify(state.fail(status, err(T.invalid, code, message, param)).body), headers);
    const parse = (): { value: unknown } | null => {
      if (rawBody.tooLarge) {
        bad(400, 'request_refused', 'Body too large.');
        return null;
      }
      const text = rawBody.raw ? rawBody.raw.toString('utf8') : '';
      if (text.trim() === '') return { value: {} };
      try {
        return { value: JSON.parse(text) };
      } catch {
        bad(400, 'request_refused', 'Body is not valid JSON.');
        return null;
      }
    };
    const allowed = ROUTES[path];
    if (!allowed) return bad(404, 'resource_not_found', `No control route /__sandbox/${path}.`);
    if (!allowed.includes(method)) return bad(405, 'method_not_allowed', `Use ${allowed.join(' or ')}.`, undefined, { Allow: allowed.join(', ') });
    if (path === 'ledger') return ok(200, control.ledger());
    if (path === 'ledger/summary') return ok(200, control.summary());
    if (path === 'faults') {
      if (method === 'GET') return ok(200, { faults: control.faults() });
      if (method === 'DELETE') {
        control.clearFaults();
        return ok(200, { faults: [] });
      }
      const body = parse();
      if (!body) return;
      try {
        return ok(201, control.addFault(body.value as FaultInput));
      } catch (e) {
        if (e instanceof FaultError) return bad(400, 'validation_failed', e.message, e.param);
        throw e;
      }
    }
    if (path === 'reset') {
      control.reset();
      return ok(200, { reset: true });
    }
    if (method === 'GET') return ok(200, control.config());
    const body = parse();
    if (!body) return;
    if (!isPlainObject(body.value)) return bad(400, 'validation_failed', 'The config patch must be a JSON object.');
    try {
      return ok(200, control.configure(body.value as SandboxConfigInput));
    } catch (e) {
      if (e instanceof ConfigError) return bad(400, 'validation_failed', e.message);
      throw e;
    }
  };
}
