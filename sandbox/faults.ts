/** Fault rules: which request gets which injected failure. */
import type { FaultInput, FaultKind, FaultRule } from './types.ts';
import { isPlainObject, newId } from './util.ts';

export const FAULT_KINDS: FaultKind[] = [
  'error_500_before_commit',
  'error_500_after_commit',
  'reset_before_commit',
  'reset_after_commit',
  'slow',
  'rate_limit_429',
];

export class FaultError extends Error {
  param: string;
  constructor(param: string, message: string) {
    super(message);
    this.param = param;
  }
}

interface Compiled {
  rule: FaultRule;
  method: string;
  segments: string[];
}

function wholeOrUndefined(input: Record<string, unknown>, name: string, min: number): number | undefined {
  const v = input[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min) throw new FaultError(name, `${name} must be a whole number >= ${min}`);
  return v;
}

export class Faults {
  private rules: Compiled[] = [];

  add(input: FaultInput): FaultRule {
    if (!isPlainObject(input)) throw new FaultError('route', 'a fault rule must be an object');
    const raw = input as unknown as Record<string, unknown>;
    const allowed = ['route', 'kind', 'count', 'every', 'skip', 'delay_ms', 'retry_after'];
    for (const k of Object.keys(raw)) if (!allowed.includes(k)) throw new FaultError(k, `unknown fault field "${k}"`);
    if (typeof raw.route !== 'string') throw new FaultError('route', 'route must be a string like "POST /v1/messages/batch"');
    const m = /^\s*([A-Za-z*]+)\s+(\/\S*)\s*$/.exec(raw.route);
    if (!m) throw new FaultError('route', 'route must be "<METHOD> <path>", e.g. "POST /v1/messages/batch"');
    if (typeof raw.kind !== 'string' || !FAULT_KINDS.includes(raw.kind as FaultKind))
      throw new FaultError('kind', `kind must be one of ${FAULT_KINDS.join(', ')}`);
    let path = m[2]!.replace(/\/+$/, '') || '/';
    if (!path.startsWith('/v1/') && path !== '/v1') path = `/v1${path}`;
    const rule: FaultRule = {
      id: newId('flt'),
      route: `${m[1]!.toUpperCase()} ${path}`,
      kind: raw.kind as FaultKind,
      count: wholeOrUndefined(raw, 'count', 1),
      every: wholeOrUndefined(raw, 'every', 1),
      skip: wholeOrUndefined(raw, 'skip', 0),
      delay_ms: wholeOrUndefined(raw, 'delay_ms', 0),
      retry_after: wholeOrUndefined(raw, 'retry_after', 0),
      seen: 0,
      fired: 0,
    };
    for (const k of ['count', 'every', 'skip', 'delay_ms', 'retry_after'] as const) if (rule[k] === undefined) delete rule[k];
    this.rules.push({ rule, method: m[1]!.toUpperCase(), segments: path.split('/') });
    return { ...rule };
  }

  list(): FaultRule[] {
    return this.rules.map((c) => ({ ...c.rule }));
  }

  clear(): void {
    this.rules = [];
  }

  /** Called once per eligible request: every matching rule sees it; the first rule due fires. */
  match(method: string, segments: string[]): FaultRule | null {
    if (this.rules.length === 0) return null;
    let chosen: FaultRule | null = null;
    for (const c of this.rules) {
      if (c.method !== '*' && c.method !== method) continue;
      if (c.segments.length !== segments.length) continue;
      let ok = true;
      for (let i = 0; i < segments.length; i++) {
        if (c.segments[i] !== '*' && c.segments[i] !== segments[i]) {
          ok = false;
          break;
        }
      }
      if (!ok) continue;
      const r = c.rule;
      r.seen++;
      if (chosen) continue;
      const k = r.seen - (r.skip ?? 0);
      if (k < 1) continue;
      if (r.every !== undefined && k % r.every !== 0) continue;
      const cap = r.count ?? (r.every !== undefined ? Infinity : 1);
      if (r.fired >= cap) continue;
      r.fired++;
      chosen = { ...r };
    }
    return chosen;
  }
}
