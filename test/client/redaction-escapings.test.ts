import { Redactor, secretPattern } from '../../src/redaction.ts';

/**
 * The forms a secret may be echoed in, each redacted, alone or mixed character by character; and text
 * that only resembles the secret is left alone.
 */
const KEY = 'sk_live/Ab+c d"é😀9';
const r = new Redactor([KEY]);
const u = (s: string, upper = false) =>
  [...s].map((c) => [...Array(c.length).keys()].map((i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join('')).map((x) => (upper ? x.toUpperCase().replace(/\\U/g, '\\u') : x)).join('');

test.each([
  ['as is', KEY],
  ['JSON.stringify', JSON.stringify(KEY).slice(1, -1)],
  ['JSON with \\/', JSON.stringify(KEY).slice(1, -1).replace(/\//g, '\\/')],
  ['every character \\u-escaped', u(KEY)],
  ['\\u-escaped, upper-case hex', u(KEY, true)],
  ['JSON-escaped twice', JSON.stringify(JSON.stringify(KEY).slice(1, -1)).slice(1, -1)],
  ['encodeURIComponent', encodeURIComponent(KEY)],
  ['percent-encoded, lower-case hex', encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase())],
  ['form-encoded (space as +)', new URLSearchParams({ k: KEY }).toString().slice(2)],
  ['HTML decimal references', [...KEY].map((c) => `&#${c.codePointAt(0)};`).join('')],
  ['HTML hex and named references', KEY.replace('"', '&quot;').replace('/', '&#x2F;')],
  ['a mix, character by character', `sk_live${'\\/'}Ab%2Bc${'\\u0020'}d\\"é😀9`],
])('%s is redacted', (_name, form) => {
  expect(r.redact(`before ${form} after`)).toBe('before [redacted] after');
});

test('text that only resembles the key, and text without it, is left as it is', () => {
  for (const text of ['sk_live/Ab+c d"é😀8', 'sk_live/Ab', '', 'hello \\u0073k_']) expect(r.redact(text)).toBe(text);
});

test('no secret given: nothing changes; every occurrence is replaced', () => {
  expect(new Redactor([undefined, '']).redact(KEY)).toBe(KEY);
  expect(`${KEY}${KEY}`.replace(secretPattern(KEY), 'x')).toBe('xx');
});
