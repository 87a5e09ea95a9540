/**
 * Removes a secret (the API key) from text, in every escaping a service or proxy may echo it in: as
 * is; JSON-escaped, including `\uXXXX` for any character, `\/` for '/', and doubly escaped (`\\u…`);
 * percent-encoded (UTF-8 bytes, either hex case, '+' for a space); and as HTML character references.
 * Each character of the secret may appear in any of its forms, so a mix is caught too.
 */
export const REDACTED = '[redacted]';

function hex(n: number, width: number): string {
  return n
    .toString(16)
    .padStart(width, '0')
    .split('')
    .map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d))
    .join('');
}

function escapeRegExp(char: string): string {
  return char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

const JSON_SHORT: Record<string, string> = { '"': '"', '\\': '\\\\', '/': '/', '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't' };
const HTML_NAMED: Record<string, string> = { '&': 'amp', '<': 'lt', '>': 'gt', '"': 'quot', "'": 'apos' };

/** Every form one character (code point) may take. */
function forms(char: string): string[] {
  const cp = char.codePointAt(0)!;
  const out = [escapeRegExp(char)];
  // JSON \u escapes, one per UTF-16 unit, behind one or more backslashes.
  const units = Array.from({ length: char.length }, (_, i) => char.charCodeAt(i));
  out.push(units.map((u) => `\\\\+u${hex(u, 4)}`).join(''));
  if (JSON_SHORT[char] !== undefined) out.push(`\\\\+${escapeRegExp(JSON_SHORT[char])}`);
  const bytes = [...new TextEncoder().encode(char)];
  out.push(bytes.map((b) => `%${hex(b, 2)}`).join(''));
  if (char === ' ') out.push('\\+');
  out.push(`&#0*${cp};`, `&#[xX]0*${hex(cp, 1)};`);
  if (HTML_NAMED[char]) out.push(`&${HTML_NAMED[char]};`);
  return out;
}

/** A pattern matching the secret in any mix of its escapings. */
export function secretPattern(secret: string): RegExp {
  const parts = Array.from(secret, (char) => `(?:${forms(char).join('|')})`);
  return new RegExp(parts.join(''), 'g');
}

/** Redacts the secrets it was given from any text; with none, returns the text as it is. */
export class Redactor {
  private readonly patterns: RegExp[];
  constructor(secrets: readonly (string | undefined)[]) {
    this.patterns = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0).map(secretPattern);
  }

  redact(text: string): string {
    let out = text;
    for (const pattern of this.patterns) out = out.replace(pattern, REDACTED);
    return out;
  }
}
