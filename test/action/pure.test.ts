/** The action's pure parts: template rendering, masking, data files with lines, inputs, summary. */
import { detectFormat, parseRecords } from '../../action/src/data-files.ts';
import { maskEmail, maskPhone, maskRecipient, maskText } from '../../action/src/mask.ts';
import { mdCode, mdText } from '../../action/src/markdown.ts';
import { MAX_RESULTS_BYTES, newReport, resultsJson } from '../../action/src/report.ts';
import { Redactor } from '../../src/redaction.ts';
import { MAX_SUMMARY_BYTES, summaryMarkdown } from '../../action/src/summary.ts';
import { render } from '../../action/src/template.ts';
import { templateScope } from '../../action/src/context.ts';
import { ContentIndex } from '../../action/src/content-index.ts';
import { diffRows } from '../../action/src/incremental.ts';
import { InputError, readInputs } from '../../action/src/inputs.ts';
import { context, fakeCore, RELEASE_EVENT } from './helpers.ts';

describe('template renderer (Handlebars, strict)', () => {
  const scope = templateScope(context(RELEASE_EVENT), { GITHUB_REPOSITORY: 'acme/shop', DEPLOY_ENV: 'prod', 'INPUT_API-KEY': 'sk_secret' }, ['DEPLOY_ENV']);

  test('renders event, repo, run and the listed env variables', () => {
    const out = render('{{ event.release.tag_name }} of {{repo.full_name}} ({{ run.url }}) to {{ upper env.DEPLOY_ENV }} by {{ run.actor }} @ {{ run.sha_short }}', scope, 'body');
    expect(out).toBe('v1.2.0 of acme/shop (https://github.com/acme/shop/actions/runs/1234567) to PROD by octocat @ abcdef0');
  });

  test('brackets, indexes, default and json helpers, escapes; output is not HTML-escaped', () => {
    const s = { ...scope, row: { 'first name': 'Ann', list: [{ a: 1 }], html: '<b>&' } };
    expect(render('{{ row.[first name] }} {{ row.list.[0].a }} {{default row.missing "n/a"}} {{json row.list}} \\{{ literal }} {{ row.html }}', s, 'x')).toBe('Ann 1 n/a [{"a":1}] {{ literal }} <b>&');
    expect(render('{{ run.ref_name }}', scope, 'x')).toBe('v1.2.0');
  });

  test('an unresolved placeholder fails, naming it and its line and column', () => {
    expect(() => render('Hi\n  {{ event.release.tag_nam }}', scope, 'input "body"')).toThrow('input "body": unresolved placeholder {{ event.release.tag_nam }} at line 2, column 6: "tag_nam" is not defined');
    expect(() => render('{{ nope.x }}', scope, 'b')).toThrow('{{ nope.x }}');
  });

  test('env holds only the listed names: never INPUT_* (the API key)', () => {
    expect(Object.keys(scope.env as object)).toEqual(['DEPLOY_ENV']);
    expect(() => render('{{ env.[INPUT_API-KEY] }}', scope, 'b')).toThrow('unresolved placeholder');
  });

  test('unclosed and malformed placeholders are refused with their position; prototype names too', () => {
    expect(() => render('Hello\nthere {{ x } and more', scope, 'b')).toThrow('unclosed placeholder at line 2, column 7');
    expect(() => render('{{ x }} {{ y', scope, 'b')).toThrow('unclosed placeholder at line 1, column 9');
    expect(() => render('a\n{{#if x}} no end', scope, 'b')).toThrow(/malformed placeholder on line 2/);
    expect(() => render('{{ row.__proto__ }}', { row: {} }, 'b')).toThrow('may not read');
    expect(() => render('{{ shout x }}', { x: 1 }, 'b')).toThrow('helpers: default, upper, lower, json');
  });
});

describe('masking', () => {
  test('e-mail addresses and phone numbers', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j***@e***.com');
    expect(maskPhone('+4915112345678')).toBe('+49*********78');
    expect(maskRecipient('+49 151 1234 5678')).toBe('+49*********78');
    expect(maskRecipient('someone')).toBe('s***e');
  });

  test('free text: addresses and international numbers anywhere, known values verbatim; ids untouched', () => {
    const text = 'to "jane@example.com" and +49 151 12345678 failed; msg_0123456789 job_42 2026-01-01T00:00:00Z weird-id';
    const out = maskText(text, ['weird-id']);
    expect(out).not.toContain('jane@example.com');
    expect(out).not.toContain('151 12345678');
    expect(out).toContain('msg_0123456789');
    expect(out).toContain('2026-01-01T00:00:00Z');
    expect(out).toContain('w***d');
  });
});

describe('data files remember their lines', () => {
  test('CSV: header, comments, blank lines, quoted multi-line cells, empty cells left out, values stay text', async () => {
    const csv = 'first_name,email,vip\n# a comment\nAnn,ann@example.com,true\n\nBob,"bob\n@example.com",\nCid,,false\n';
    const records = await parseRecords(csv, 'csv', ['contacts'], 'contact');
    expect(records.map((r) => r.line)).toEqual([3, 5, 7]);
    expect(records[0].value).toEqual({ first_name: 'Ann', email: 'ann@example.com', vip: 'true' });
    expect(records[2].value).toEqual({ first_name: 'Cid', vip: 'false' });
  });

  test('CSV with CRLF line ends and CRLF inside quoted cells: every record at its own line', async () => {
    const csv = 'name,note\r\nA,"one\r\ntwo"\r\n\r\nB,"x\r\n\r\ny"\r\nC,z\r\n';
    const records = await parseRecords(csv, 'csv', [], 'contact');
    expect(records.map((r) => r.line)).toEqual([2, 5, 8]);
    expect(records[0].value.note).toBe('one\ntwo');
  });

  test('prototype names and case-variant keys are refused by name in JSON and YAML too', async () => {
    await expect(parseRecords('[{"email":"a@x.io"},\n {"__proto__":{"x":1}}]', 'json', [], 'contact')).rejects.toThrow(expect.objectContaining({ line: 2, message: 'field "__proto__" is not allowed (a prototype name)' }));
    await expect(parseRecords('- Email: a@x.io\n  email: b@x.io\n', 'yaml', [], 'contact')).rejects.toThrow(expect.objectContaining({ line: 1, message: 'fields "Email" and "email" differ only in case: keep one' }));
  });

  test('CSV errors carry the line', async () => {
    await expect(parseRecords('a,b\n1,2\n1,2,3\n', 'csv', [], 'x')).rejects.toThrow(expect.objectContaining({ line: 3 }));
  });

  test('JSON: root array or an object key; lines of each element; strings with brackets do not confuse it', async () => {
    const json = '{\n  "note": "[not, this]",\n  "messages": [\n    {"to": "a@x.io", "body": "]}{,"},\n\n    {\n      "to": "b@x.io"\n    }\n  ]\n}\n';
    expect((await parseRecords(json, 'json', ['messages'], 'message')).map((r) => r.line)).toEqual([4, 6]);
    expect((await parseRecords('[{"a":1},\n{"a":2}]', 'json', ['messages'], 'message')).map((r) => r.line)).toEqual([1, 2]);
    await expect(parseRecords('[{"a":1},\n 3]', 'json', [], 'message')).rejects.toThrow(expect.objectContaining({ line: 2, message: expect.stringContaining('each message must be an object') }));
    await expect(parseRecords('[\n{"a":1},\n{"a":2,}\n]', 'json', [], 'message')).rejects.toThrow(expect.objectContaining({ line: 3 }));
  });

  test('YAML: sequences with lines; phone numbers and true/false stay text (failsafe)', async () => {
    const yaml = 'contacts:\n  - first_name: Ann\n    whatsapp: +4915112345678\n    vip: true\n  # comment\n  - first_name: Bob\n';
    const records = await parseRecords(yaml, 'yaml', ['contacts'], 'contact');
    expect(records.map((r) => r.line)).toEqual([2, 6]);
    expect(records[0].value).toEqual({ first_name: 'Ann', whatsapp: '+4915112345678', vip: 'true' });
    await expect(parseRecords('contacts:\n  - a: [\n', 'yaml', ['contacts'], 'contact')).rejects.toThrow(/YAML/);
  });

  test('text: one value a line, comments skipped', async () => {
    expect(await parseRecords('# team\na@x.io\n\n+4915112345678\n', 'text', [], 'r')).toEqual([
      { line: 2, value: { value: 'a@x.io' } },
      { line: 4, value: { value: '+4915112345678' } },
    ]);
    expect(detectFormat('x/contacts.yml', 'auto')).toBe('yaml');
    expect(detectFormat('x/contacts.csv', 'json')).toBe('json');
    expect(() => detectFormat('x/contacts.xlsx', 'auto')).toThrow('set file-format');
  });
});

describe('inputs', () => {
  test.each([
    [{ mode: 'shout' }, 'mode'],
    [{ 'dry-run': 'yes' }, 'dry-run'],
    [{ 'base-url': 'http://example.com/v1' }, 'base-url'],
    [{ 'base-url': '' }, 'base-url'],
    [{ 'wait-timeout': 'soon' }, 'wait-timeout'],
    [{ 'wait-timeout': '0x10' }, 'wait-timeout'],
    [{ 'max-rate-limit-wait': '1e3' }, 'max-rate-limit-wait'],
    [{ 'env-vars': 'INPUT_API-KEY' }, 'env-vars'],
    [{ 'env-vars': 'MESSAGING_API_KEY' }, 'env-vars'],
    [{ 'idempotency-key': 'has space' }, 'idempotency-key'],
    [{ 'file-format': 'xls' }, 'file-format'],
    [{ 'fail-on-error': '' }, 'fail-on-error'],
  ])('invalid %j names the input', (given, name) => {
    const core = fakeCore({ 'base-url': 'https://api.example.com/v1', ...given });
    expect(() => readInputs(core, {}, 'sk_test')).toThrow(new RegExp(`^Input "${name}"`));
    try {
      readInputs(core, {}, 'sk_test');
    } catch (e) {
      expect(e).toBeInstanceOf(InputError);
      expect((e as InputError).input).toBe(name);
    }
  });

  test('base URL and key fall back to the environment; dry run needs neither', () => {
    const s = readInputs(fakeCore(), { MESSAGING_BASE_URL: 'https://api.example.com/v1/' }, 'k');
    expect(s.baseUrl).toBe('https://api.example.com/v1');
    expect(() => readInputs(fakeCore({ 'base-url': 'https://api.example.com/v1' }), {}, '')).toThrow('Input "api-key"');
    expect(readInputs(fakeCore({ 'dry-run': 'true' }), {}, '').dryRun).toBe(true);
  });
});

describe('report', () => {
  test('results output is cut under 512 KiB with a marker; replays are sent', () => {
    const rows = Array.from({ length: 20000 }, (_, i) => ({ index: i, line: i + 2, status: 'failed', error: { code: 'validation_failed', message: 'x'.repeat(40) } }));
    const json = resultsJson(rows);
    expect(json.length).toBeLessThan(MAX_RESULTS_BYTES);
    const parsed = JSON.parse(json) as { truncated?: boolean; omitted?: number }[];
    expect(parsed[parsed.length - 1]).toEqual({ truncated: true, omitted: 20000 - (parsed.length - 1), see: 'results-file' });
  });

  test('summary is a table, cut well under 1 MiB, cells escaped', () => {
    const report = newReport('batch', false);
    report.counts.sent = 1;
    report.rows = Array.from({ length: 5000 }, (_, i) => ({ index: i, line: i + 2, recipient: 'a***@e***.io', status: 'failed', error: { code: 'validation_failed', message: 'bad | <b>x</b>\nnext '.repeat(10) } }));
    const md = summaryMarkdown(report);
    expect(Buffer.byteLength(md)).toBeLessThan(MAX_SUMMARY_BYTES + 4096);
    expect(md).toContain('more rows not shown');
    expect(md).toContain('bad \\| &lt;b&gt;x&lt;/b&gt; ⏎ next');
    expect(md).not.toContain('<b>');
  });
});

describe('summary text and the key', () => {
  test('text: entities for HTML, backslashes for inline Markdown, one line', () => {
    expect(mdText('a <b> & *c* [d](e) `f` ~g~ $h$ | i\\\r\nj\u2028k\u202el')).toBe('a &lt;b&gt; &amp; \\*c\\* \\[d\\](e) \\`f\\` \\~g\\~ \\$h\\$ \\| i\\\\ ⏎ j ⏎ kl');
  });

  test('code spans: fenced one backtick longer than any run inside; pipes escaped in tables', () => {
    expect(mdCode('a``b')).toBe('```a``b```');
    expect(mdCode('`x')).toBe('`` `x ``');
    expect(mdCode('a|b', true)).toBe('`a\\|b`');
    expect(mdCode('<img>\n')).toBe('`<img> ⏎ `');
  });

  test('the key in each form it comes back in is redacted, longest first', () => {
    const key = 'sk_live/"+é x';
    const redactor = new Redactor([key], '***');
    for (const form of [key, 'sk_live/\\"+é x', 'sk_live%2F%22%2B%C3%A9%20x', 'sk_live%2F%22%2B%C3%A9+x', 'sk_live/&quot;+é x', Buffer.from(key).toString('base64'), Buffer.from(key).toString('base64url')]) {
      expect(redactor.finds(`<${form}>`)).toBe(true);
      expect(redactor.redact(`<${form}>`)).toBe('<***>');
    }
    expect(redactor.finds('<sk_live/"+é>')).toBe(false);
  });
});

describe('incremental sync rows', () => {
  const rec = (line: number, email: string, name = 'A') => ({ line, value: { first_name: name, email } });
  const identity = (r: { value: Record<string, unknown> }) => String(r.value.email);

  test('moved rows are unchanged; edited rows are changed, not removed; gone contacts are removed', () => {
    const before = [rec(2, 'a@x.io'), rec(3, 'b@x.io'), rec(4, 'c@x.io'), rec(5, 'd@x.io')];
    const after = [rec(2, 'b@x.io'), rec(3, 'a@x.io'), rec(4, 'c@x.io', 'Edited'), rec(5, 'e@x.io')];
    const diff = diffRows(before, after, identity);
    expect(diff.changed).toEqual([2, 3]);
    expect(diff.removed.map((r) => r.line)).toEqual([5]);
  });

  test('identical rows: the earliest are matched, so a later duplicate gone from the file is the one named', () => {
    const before = [rec(2, 'a@x.io'), rec(3, 'b@x.io'), rec(4, 'a@x.io'), rec(5, 'a@x.io')];
    const diff = diffRows(before, [rec(2, 'a@x.io'), rec(3, 'a@x.io')], identity);
    expect(diff.changed).toEqual([]);
    expect(diff.removed.map((r) => r.line)).toEqual([3]);
    const index = new ContentIndex();
    for (const r of before) index.add(r.value);
    expect([index.take(rec(9, 'a@x.io').value), index.take(rec(9, 'c@x.io').value)]).toEqual([true, false]);
    expect(before.map((r) => index.unmatched(r.value))).toEqual([false, true, true, true]);
  });

  test('duplicates count as a multiset: a second identical row is new', () => {
    expect(diffRows([rec(2, 'a@x.io')], [rec(2, 'a@x.io'), rec(3, 'a@x.io')], identity).changed).toEqual([1]);
  });
});
