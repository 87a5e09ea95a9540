/**
 * Finds and removes a secret (the API key) in text, in every escaping a service, proxy or repository file
 * may hold it in: as is; JSON-escaped, including `\uXXXX` for any character, `\/` for '/', and doubly
 * escaped (`\\u…`); percent-encoded (UTF-8 bytes, either hex case, '+' for a space); HTML character
 * references (each character of the secret may appear in any of these forms, so a mix is caught too);
 * and base64 (standard, unpadded, URL-safe), which encodes the whole secret at once. One module for
 * both adapters: the client redacts what it hands back, the action what it shows and refuses to send.
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

/** UTF-8 bytes, read off encodeURIComponent (src/ uses no host globals such as Buffer or TextEncoder). */
function utf8Bytes(text: string): number[] {
  const bytes: number[] = [];
  const uri = encodeURIComponent(text);
  for (let i = 0; i < uri.length; i++) {
    if (uri[i] === '%') {
      bytes.push(parseInt(uri.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(uri.charCodeAt(i));
  }
  return bytes;
}

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function base64(bytes: number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i]!, bytes[i + 1], bytes[i + 2]];
    out += BASE64[a >> 2]! + BASE64[((a & 3) << 4) | ((b ?? 0) >> 4)]!;
    out += b === undefined ? '=' : BASE64[((b & 15) << 2) | ((c ?? 0) >> 6)]!;
    out += c === undefined ? '=' : BASE64[c & 63]!;
  }
  return out;
}

/** The base64 forms of the whole secret: padded, unpadded (a prefix of the padded one), URL-safe. */
function base64Forms(secret: string): string[] {
  const unpadded = base64(utf8Bytes(secret)).replace(/=+$/, '');
  return [...new Set([unpadded, unpadded.replace(/\+/g, '-').replace(/\//g, '_')])];
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
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
  const bytes = utf8Bytes(char);
  out.push(bytes.map((b) => `%${hex(b, 2)}`).join(''));
  if (char === ' ') out.push('\\+');
  out.push(`&#0*${cp};`, `&#[xX]0*${hex(cp, 1)};`);
  if (HTML_NAMED[char]) out.push(`&${HTML_NAMED[char]};`);
  return out;
}

/** A pattern matching the secret in any mix of its escapings, or base64-encoded. */
export function secretPattern(secret: string): RegExp {
  const parts = Array.from(secret, (char) => `(?:${forms(char).join('|')})`);
  const encoded = base64Forms(secret).map((form) => `${form.replace(/[+/]/g, '\\$&')}=*`);
  return new RegExp([parts.join(''), ...encoded].join('|'), 'g');
}

/**
 * A cheap test that is true whenever `secretPattern(secret)` could match. Every form of a character but
 * the character itself holds `\`, `%` or `&` (or is `+`, for a space); so in text with none of those, a
 * match can only be the secret as is or a base64 form, each found by a literal search. Most answers
 * (a batch's rows of ids) hold no such character: the full pattern, dozens of times slower over a long
 * body, runs only where it might find something.
 */
function mayHold(secret: string): (text: string) => boolean {
  const escapes = secret.includes(' ') ? ['\\', '%', '&', '+'] : ['\\', '%', '&'];
  const literals = new RegExp([secret, ...base64Forms(secret)].map(escapeRegExp).join('|'));
  return (text) => escapes.some((char) => text.includes(char)) || literals.test(text);
}

/** Redacts the secrets it was given from any text; with none, returns the text as it is. */
export class Redactor {
  private readonly secrets: { pattern: RegExp; mayHold: (text: string) => boolean }[];
  private readonly replacement: string;
  constructor(secrets: readonly (string | undefined)[], replacement = REDACTED) {
    this.secrets = secrets.filter((s): s is string => typeof s === 'string' && s.length > 0).map((s) => ({ pattern: secretPattern(s), mayHold: mayHold(s) }));
    this.replacement = replacement;
  }

  redact(text: string): string {
    let out = text;
    for (const { pattern, mayHold } of this.secrets) if (mayHold(out)) out = out.replace(pattern, this.replacement);
    return out;
  }

  /** True when `text` holds a secret in any of its forms. */
  finds(text: string): boolean {
    return this.secrets.some(({ pattern, mayHold }) => {
      if (!mayHold(text)) return false;
      pattern.lastIndex = 0;
      return pattern.test(text);
    });
  }
}
