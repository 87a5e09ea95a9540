/**
 * The forms a secret (the API key) can come back in — quoted in a JSON string, URL- or form-encoded,
 * HTML-escaped, base64 — so text shown to users can be cleaned of every one of them, not only the raw
 * value a log mask knows. Pure: no IO.
 */

const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

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

function base64(bytes: number[]): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const [a, b, c] = [bytes[i], bytes[i + 1], bytes[i + 2]];
    out += ALPHABET[a >> 2] + ALPHABET[((a & 3) << 4) | ((b ?? 0) >> 4)];
    out += b === undefined ? '=' : ALPHABET[((b & 15) << 2) | ((c ?? 0) >> 6)];
    out += c === undefined ? '=' : ALPHABET[c & 63];
  }
  return out;
}

const MIN_FORM_LENGTH = 8;

/** Distinct forms of `secret`, longest first (so a longer form is replaced before a form inside it). */
export function secretForms(secret: string): string[] {
  if (!secret) return [];
  const b64 = base64(utf8Bytes(secret));
  const uri = encodeURIComponent(secret);
  const forms = [
    secret,
    JSON.stringify(secret).slice(1, -1),
    // Servers that escape HTML-significant characters inside JSON strings (e.g. Go's encoding/json).
    JSON.stringify(secret)
      .slice(1, -1)
      .replace(/[<>&\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    uri,
    uri.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
    new URLSearchParams({ s: secret }).toString().slice(2),
    secret.replace(/[&<>"']/g, (c) => HTML[c]),
    b64,
    b64.replace(/=+$/, ''),
    b64.replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_'),
  ];
  // A form too short to be told from ordinary text is not hunted for; the secret itself always is.
  return [...new Set(forms)].filter((f) => f === secret || f.length >= MIN_FORM_LENGTH).sort((a, b) => b.length - a.length);
}

/** `text` with every form replaced by `replacement`. */
export function redactSecretForms(text: string, forms: readonly string[], replacement = '***'): string {
  let out = text;
  for (const form of forms) if (out.includes(form)) out = out.split(form).join(replacement);
  return out;
}
