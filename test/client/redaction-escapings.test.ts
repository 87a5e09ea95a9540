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

/**
 * Redactor skips the full pattern on text holding none of `\`, `%`, `&` (nor `+`, for a key with a
 * space) unless the key or a base64 form of it is there literally. Those skipped texts must come out
 * exactly as the full pattern would leave them: checked over text built from every form, with and
 * without the escape characters.
 */
test('the cheap pre-check never lets a form through that the full pattern would catch', () => {
  const keys = [KEY, 'sk_test_demo_ok', 'sk live key', 'a+b/c=d'];
  const b64 = (k: string) => Buffer.from(k, 'utf8').toString('base64');
  for (const key of keys) {
    const redactor = new Redactor([key]);
    const full = (text: string) => text.replace(secretPattern(key), '[redacted]');
    const pieces = [
      key,
      b64(key),
      b64(key).replace(/=+$/, ''),
      b64(key).replace(/\+/g, '-').replace(/\//g, '_'),
      new URLSearchParams({ k: key }).toString().slice(2),
      JSON.stringify(key).slice(1, -1),
      encodeURIComponent(key),
      key.slice(0, -1),
      '{"data":[{"index":0,"id":"msg_1"}]}',
      'plain words',
    ];
    for (const a of pieces) {
      for (const b of pieces) {
        const text = `x${a}y${b}z`;
        expect(redactor.redact(text)).toBe(full(text));
        expect(redactor.finds(text)).toBe(full(text) !== text);
      }
    }
  }
});

test('a key in base64 or as is, in an answer with no escape character, is still redacted', () => {
  const key = 'sk_test_demo_ok';
  const redactor = new Redactor([key]);
  const b64 = Buffer.from(key).toString('base64');
  for (const form of [key, b64, b64.replace(/=+$/, ''), b64.replace(/\+/g, '-').replace(/\//g, '_')]) {
    const body = `{"data":[{"index":0,"id":"msg_1"},{"index":1,"id":"${form}"}]}`;
    expect(redactor.redact(body)).toBe('{"data":[{"index":0,"id":"msg_1"},{"index":1,"id":"[redacted]"}]}');
  }
  expect(new Redactor(['sk live key']).redact('{"k":"sk+live+key"}')).toBe('{"k":"[redacted]"}');
});
