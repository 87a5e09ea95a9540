/**
 * Logs and job summaries of public repositories are public: phone numbers and e-mail addresses are
 * masked before they are written anywhere (log lines, annotations, the summary).
 */

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;
/** International format (spec §2: "phone number in international format"), separators tolerated. */
const PHONE = /\+\d(?:[\s().-]?\d){6,16}/g;

export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return maskOther(address);
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local[0]}***@${host[0] ?? ''}***${tld}`;
}

export function maskPhone(phone: string): string {
  const digits = phone.replace(/\D/g, '');
  if (digits.length < 6) return '***';
  return `${phone.trim().startsWith('+') ? '+' : ''}${digits.slice(0, 2)}${'*'.repeat(digits.length - 4)}${digits.slice(-2)}`;
}

function maskOther(value: string): string {
  const v = value.trim();
  if (v.length <= 2) return '***';
  return `${v[0]}***${v[v.length - 1]}`;
}

/** A recipient address, whatever its channel. */
export function maskRecipient(value: string): string {
  const v = String(value ?? '').trim();
  if (v.includes('@')) return maskEmail(v);
  if (/^\+?[\d\s().-]{6,}$/.test(v)) return maskPhone(v);
  return maskOther(v);
}

/**
 * Masks every e-mail address and international phone number in free text (e.g. a service error
 * message that quotes the recipient), plus any `known` values (recipients we sent to) verbatim.
 */
export function maskText(text: string, known?: Iterable<string>): string {
  let out = String(text);
  if (known) {
    for (const value of known) {
      if (value && value.length >= 3 && out.includes(value)) out = out.split(value).join(maskRecipient(value));
    }
  }
  return out.replace(EMAIL, (m) => maskEmail(m)).replace(PHONE, (m) => maskPhone(m));
}
