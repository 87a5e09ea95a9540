/**
 * Templates are Handlebars in strict mode: a placeholder that does not resolve fails, naming it and its
 * line:column — never `???`, never an empty string. Output is not HTML-escaped (messages are text).
 * Helpers: `{{default x "text"}}`, `{{upper x}}`, `{{lower x}}`, `{{json x}}`; no partials, no other helpers.
 * Only templates from inputs are rendered: values from data files are data, never templates.
 */
import Handlebars from 'handlebars';

export class TemplateError extends Error {
  constructor(where: string, problem: string) {
    super(`${where}: ${problem}`);
    this.name = 'TemplateError';
  }
}

const engine = Handlebars.create();
const blank = (v: unknown) => v === undefined || v === null || v === '';
const text = (v: unknown) => (typeof v === 'string' ? v : blank(v) ? '' : typeof v === 'object' ? JSON.stringify(v) : String(v));
engine.registerHelper('default', (value: unknown, fallback: unknown) => (blank(value) ? fallback : value));
engine.registerHelper('upper', (value: unknown) => text(value).toUpperCase());
engine.registerHelper('lower', (value: unknown) => text(value).toLowerCase());
engine.registerHelper('json', (value: unknown) => JSON.stringify(value ?? null));
const HELPERS = { default: true, upper: true, lower: true, json: true };

/** 1-based line and column of `offset` in `source`. */
function position(source: string, offset: number): string {
  const before = source.slice(0, offset).split('\n');
  return `line ${before.length}, column ${before[before.length - 1].length + 1}`;
}

/** Syntax Handlebars would report less precisely (or accept): unclosed `{{`, and prototype names. */
function precheck(template: string): string | undefined {
  const open = /(\\?)\{\{/g;
  for (let m = open.exec(template); m; m = open.exec(template)) {
    if (m[1]) continue;
    const close = template.indexOf('}}', m.index + 2);
    const next = template.indexOf('{{', m.index + 2);
    if (close < 0 || (next >= 0 && next < close)) return `unclosed placeholder at ${position(template, m.index)}: "${template.slice(m.index, m.index + 24).split('\n')[0]}" needs a closing }}`;
    const inner = template.slice(m.index + 2, close);
    const bad = /(?:^|[\s.[/])(__proto__|constructor|prototype|__defineGetter__|__defineSetter__|__lookupGetter__)\b/.exec(inner);
    if (bad) return `placeholder at ${position(template, m.index)} uses "${bad[1]}", which templates may not read`;
    open.lastIndex = close + 2;
  }
  return undefined;
}

function describe(error: Error, template: string): string {
  const e = error as Error & { lineNumber?: number; column?: number };
  const parse = /^Parse error on line (\d+):/.exec(e.message);
  if (parse) return `malformed placeholder on line ${parse[1]}: ${e.message.split('\n').slice(3).join(' ').replace(/^Expecting .*got /, 'unexpected ')}`;
  const strict = /^"([^"]*)" not defined in .* - (\d+):(\d+)$/.exec(e.message);
  if (strict) {
    const line = template.split('\n')[Number(strict[2]) - 1] ?? '';
    const path = /^[^\s}]+/.exec(line.slice(Number(strict[3])))?.[0] ?? strict[1];
    return `unresolved placeholder {{ ${path} }} at line ${strict[2]}, column ${Number(strict[3]) + 1}: "${strict[1]}" is not defined`;
  }
  if (/could not be found|unknown helper|knownHelpersOnly/.test(e.message)) return `${e.message.replace(/ - \d+:\d+$/, '')} (helpers: default, upper, lower, json)`;
  return e.message;
}

/**
 * Renders `template` against `scope`; `where` prefixes errors (e.g. `input "body"`). `\{{` stays a
 * literal `{{` (Handlebars' own escape).
 */
export function render(template: string, scope: Record<string, unknown>, where: string): string {
  const problem = precheck(template);
  if (problem) throw new TemplateError(where, problem);
  try {
    return engine.compile(template, { strict: true, noEscape: true, knownHelpers: HELPERS, knownHelpersOnly: true })(scope);
  } catch (error) {
    throw new TemplateError(where, describe(error as Error, template));
  }
}
