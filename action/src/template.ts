/**
 * A small template renderer: `{{ event.release.tag_name }}`, `{{ row['first name'] }}`,
 * `{{ event.commits[0].message }}`, with the filters `default: "text"`, `upper`, `lower`, `json`.
 * A placeholder that does not resolve (missing, null or empty path) fails, naming it — never `???`.
 * `\{{` renders a literal `{{`.
 */

export class TemplateError extends Error {
  readonly where: string;
  readonly placeholders: string[];
  constructor(where: string, problems: string[], placeholders: string[]) {
    super(`${where}: ${problems.join('; ')}`);
    this.name = 'TemplateError';
    this.where = where;
    this.placeholders = placeholders;
  }
}

type Segment = string | number;

interface Expression {
  source: string;
  path: Segment[];
  filters: { name: string; arg?: string }[];
}

const PLACEHOLDER = /(\\?)\{\{([\s\S]*?)\}\}/g;
const FILTERS = new Set(['default', 'upper', 'lower', 'json']);

function parsePath(text: string): Segment[] | undefined {
  const segments: Segment[] = [];
  let i = 0;
  const ident = /^[A-Za-z_$][\w$-]*/;
  const first = ident.exec(text);
  if (!first) return undefined;
  segments.push(first[0]);
  i = first[0].length;
  while (i < text.length) {
    const rest = text.slice(i);
    let m: RegExpExecArray | null;
    if ((m = /^\s*\.\s*([A-Za-z_$][\w$-]*|\d+)/.exec(rest))) {
      segments.push(/^\d+$/.test(m[1]) ? Number(m[1]) : m[1]);
    } else if ((m = /^\s*\[\s*(\d+)\s*\]/.exec(rest))) {
      segments.push(Number(m[1]));
    } else if ((m = /^\s*\[\s*(?:'([^']*)'|"([^"]*)")\s*\]/.exec(rest))) {
      segments.push(m[1] ?? m[2]);
    } else if (/^\s*$/.test(rest)) {
      break;
    } else {
      return undefined;
    }
    i += m[0].length;
  }
  return segments;
}

function parseExpression(source: string): Expression | string {
  const parts = source.split('|');
  // A literal default may itself contain `|`: re-join everything after the first `default`.
  const path = parsePath(parts[0].trim());
  if (!path) return `{{${source}}} is not a valid placeholder (expected a path like event.release.tag_name)`;
  const filters: Expression['filters'] = [];
  for (let k = 1; k < parts.length; k++) {
    const text = parts[k].trim();
    const m = /^([a-z]+)\s*(?::\s*([\s\S]*))?$/.exec(text);
    if (!m || !FILTERS.has(m[1])) return `{{${source}}} uses an unknown filter "${text}" (known: default, upper, lower, json)`;
    if (m[1] === 'default') {
      const raw = [m[2] ?? '', ...parts.slice(k + 1)].join('|').trim();
      const lit = /^(?:"((?:[^"\\]|\\.)*)"|'([^']*)')$/.exec(raw);
      if (!lit) return `{{${source}}}: default needs a quoted text, e.g. default: "none"`;
      filters.push({ name: 'default', arg: lit[1] !== undefined ? lit[1].replace(/\\(.)/g, '$1') : lit[2] });
      break;
    }
    filters.push({ name: m[1] });
  }
  return { source: source.trim(), path, filters };
}

function describePath(path: Segment[], upTo: number): string {
  return path.slice(0, upTo).map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

/** Follows the path; on a miss, says where it stopped and (except under env) what was there. */
function lookup(scope: Record<string, unknown>, path: Segment[]): { value: unknown } | { miss: string } {
  let current: unknown = scope;
  for (let i = 0; i < path.length; i++) {
    const seg = path[i];
    if (current === null || current === undefined || typeof current !== 'object') {
      return { miss: `${describePath(path, i)} is ${current === null ? 'null' : typeof current}` };
    }
    const next = (current as Record<string | number, unknown>)[seg];
    if (next === undefined) {
      if (i === 0) return { miss: `unknown variable "${seg}" (known: ${Object.keys(scope).join(', ')})` };
      const where = describePath(path, i);
      const keys = Array.isArray(current) ? `it has ${current.length} elements` : path[0] === 'env' ? '' : `it has: ${Object.keys(current).slice(0, 12).join(', ') || 'nothing'}`;
      return { miss: `${where} has no "${seg}"${keys ? ` (${keys})` : ''}` };
    }
    current = next;
  }
  return { value: current };
}

function format(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return JSON.stringify(value);
}

/** The placeholders of a template (their source text), for docs and validation. */
export function placeholdersOf(template: string): string[] {
  const found: string[] = [];
  for (const m of template.matchAll(PLACEHOLDER)) if (!m[1]) found.push(m[2].trim());
  return found;
}

/**
 * Renders `template` against `scope`. Every unresolved placeholder is collected and reported at once,
 * prefixed by `where` (e.g. `input "body"`, `examples/batch.csv line 4 (body)`).
 */
export function render(template: string, scope: Record<string, unknown>, where: string): string {
  const problems: string[] = [];
  const unresolved: string[] = [];
  const out = template.replace(PLACEHOLDER, (whole, escaped: string, inner: string) => {
    if (escaped) return whole.slice(1);
    const expr = parseExpression(inner);
    if (typeof expr === 'string') {
      problems.push(expr);
      unresolved.push(inner.trim());
      return '';
    }
    const found = lookup(scope, expr.path);
    let value: unknown = 'value' in found ? found.value : undefined;
    const empty = value === undefined || value === null || value === '';
    const fallback = expr.filters.find((f) => f.name === 'default');
    if (empty) {
      if (fallback) value = fallback.arg;
      else {
        const reason = 'miss' in found ? found.miss : `${describePath(expr.path, expr.path.length)} is ${value === null ? 'null' : 'empty'}`;
        problems.push(`unresolved placeholder {{ ${expr.source} }}: ${reason}`);
        unresolved.push(expr.source);
        return '';
      }
    }
    let text = format(value);
    for (const f of expr.filters) {
      if (f.name === 'upper') text = text.toUpperCase();
      else if (f.name === 'lower') text = text.toLowerCase();
      else if (f.name === 'json') text = JSON.stringify(value);
    }
    return text;
  });
  if (problems.length) throw new TemplateError(where, problems, unresolved);
  return out;
}
