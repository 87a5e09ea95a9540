/** The control surface (/__sandbox/... over HTTP, `Sandbox.control` in process): ledger, faults, reset, config. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ConfigError } from './config.ts';
import { FaultError } from './faults.ts';
import type { Faults } from './faults.ts';
import type { RawBody } from './http/body.ts';
import type { ControlGuard } from './control-guard.ts';
import { writeJson } from './http/headers.ts';
import { parseJson } from './http/json-body.ts';
import type { Reply } from './replies.ts';
import { LedgerQueryError, ledgerPage, summary } from './ledger.ts';
import type { State } from './state.ts';
import type { FaultInput, LedgerQuery, LedgerRows, SandboxConfigInput, SandboxControl } from './types.ts';
import { T, err, isPlainObject } from './util.ts';

export function createControl(state: State, faults: Faults): SandboxControl {
  return {
    ledger: (query) => ledgerPage(state, query),
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

/** Control routes and their methods; a Map, so "/__sandbox/constructor" is simply unknown. */
const ROUTES = new Map<string, string[]>([
  ['ledger', ['GET']],
  ['ledger/summary', ['GET']],
  ['faults', ['GET', 'POST', 'DELETE']],
  ['reset', ['POST']],
  ['config', ['GET', 'POST']],
]);

export interface ControlRequest {
  req: IncomingMessage;
  res: ServerResponse;
  requestId: string;
  segs: string[];
  query: URLSearchParams;
  body: RawBody;
}

const LEDGER_PARAMS = ['rows', 'after', 'limit'];

/** `?rows=&after=&limit=` as a LedgerQuery; each at most once, nothing else. */
function ledgerQuery(params: URLSearchParams): LedgerQuery {
  for (const name of new Set(params.keys())) {
    if (!LEDGER_PARAMS.includes(name)) throw new LedgerQueryError(name, `Unknown query parameter ${name}; the ledger takes ${LEDGER_PARAMS.join(', ')}.`);
    if (params.getAll(name).length > 1) throw new LedgerQueryError(name, `${name} is given more than once.`);
  }
  const limit = params.get('limit');
  if (limit !== null && !/^\d{1,4}$/.test(limit)) throw new LedgerQueryError('limit', 'limit must be a whole number from 1 to 1000.');
  return { rows: (params.get('rows') ?? undefined) as LedgerRows | undefined, after: params.get('after'), limit: limit === null ? undefined : Number(limit) };
}

export function controlHandler(state: State, control: SandboxControl, guard: ControlGuard): (r: ControlRequest) => void {
  return ({ req, res, requestId, segs, query, body: rawBody }) => {
    const method = req.method ?? 'GET';
    const path = segs.slice(2).join('/');
    const ok = (status: number, body: unknown): void => writeJson(res, requestId, status, JSON.stringify(body));
    const refuse = (r: Reply): void => writeJson(res, requestId, r.status, JSON.stringify(r.body), r.headers);
    const bad = (status: number, code: string, message: string, param?: string, headers?: Record<string, string>): void => refuse(state.fail(status, err(T.invalid, code, message, param), headers));
    const parse = (): { value: unknown } | null => {
      const parsed = parseJson(state.fail, req, rawBody, { maxBytes: state.config.max_body_bytes, maxDepth: state.config.max_json_depth }, true);
      if ('status' in parsed) {
        refuse(parsed);
        return null;
      }
      return parsed;
    };
    const source = guard.checkSource(req);
    if (source) return refuse(source);
    const allowed = ROUTES.get(path);
    if (!allowed) return bad(404, 'resource_not_found', `No control route /__sandbox/${path}.`);
    if (!allowed.includes(method)) return bad(405, 'method_not_allowed', `Use ${allowed.join(' or ')}.`, undefined, { Allow: allowed.join(', ') });
    if (method !== 'GET') {
      const denied = guard.checkWrite(req);
      if (denied) return refuse(denied);
    }
    if (path === 'ledger') {
      try {
        return ok(200, control.ledger(ledgerQuery(query)));
      } catch (e) {
        if (e instanceof LedgerQueryError) return bad(400, 'validation_failed', e.message, e.param);
        throw e;
      }
    }
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
