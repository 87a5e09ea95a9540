/**
 * The API key, in any form it comes back in (as given, JSON-escaped, URL-encoded, base64), is masked in the
 * summary, the outputs and the results file, not only in the log; and content holding it is never sent.
 * Run as the runner runs the bundle: with the key inside the event payload (a PR title) or a data file, and
 * over real HTTP against a service that quotes the Authorization header back in its error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DIST, keyForms, leaks, runStep } from './runner.ts';

/** A key whose JSON, URL and base64 forms all differ from it. */
const KEY = 'sk_live_Q/7+Zr"9&w=0<rd> x';
const FORMS = keyForms(KEY);

beforeAll(() => {
  if (!existsSync(DIST)) throw new Error('action/dist/index.js is missing: run `npm run build:action`');
});

test('the forms are all different (so each is tested)', () => {
  expect(new Set(FORMS).size).toBe(FORMS.length);
  expect(FORMS.length).toBeGreaterThanOrEqual(4);
});

test('a key that also appears in the event payload is masked in the summary, outputs and results file, and not sent', async () => {
  const title = `Rotate ${FORMS.join(' and ')}`;
  const r = await runStep(
    { 'api-key': KEY, mode: 'send', channel: 'email', to: 'ann@example.com', subject: '{{ event.pull_request.title }}', body: '{{ event.pull_request.title }}', 'dry-run': 'true' },
    { event: { pull_request: { title } }, eventName: 'pull_request_target' },
  );
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^::error::Input "body": holds the API key \(in some form\): it is never sent/m);
  expect(r.summary).toMatch(/^\*\*Subject:\*\* Rotate (\\\*){3} and (\\\*){3} and/m);
  for (const form of FORMS) expect(leaks(r, form)).toEqual([]);
});

describe('a service that quotes the key back', () => {
  let server: Server;
  let url: string;
  let requests = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      requests += 1;
      req.resume();
      const token = String(req.headers.authorization ?? '').replace(/^Bearer /, '');
      const forms = keyForms(token);
      res.writeHead(422, { 'content-type': 'application/json', 'x-request-id': 'req_echo' });
      res.end(JSON.stringify({ error: { type: 'invalid_request_error', code: 'validation_failed', message: `bad key: ${forms.join(' | ')}`, param: forms[2] } }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('its error reaches the results and the summary without the key in any form', async () => {
    const r = await runStep({ 'api-key': KEY, 'base-url': url, mode: 'send', channel: 'email', to: 'ann@example.com', body: 'hi', 'fail-on-error': 'false' });
    expect(r.code).toBe(0);
    const results = JSON.parse(r.outputs.results) as { status: string; error: { code: string; message: string } }[];
    expect(results[0]).toMatchObject({ status: 'failed', error: { code: 'validation_failed' } });
    expect(results[0].error.message).toMatch(/^bad key: /);
    expect(readFileSync(r.outputs['results-file'], 'utf8')).toContain('validation_failed');
    for (const form of FORMS) expect(leaks(r, form)).toEqual([]);
  });

  test.each([
    ['send', { mode: 'send', channel: 'email', to: 'ann@example.com', body: '{{ event.note }}' }, {}],
    ['batch', { mode: 'batch', file: 'm.json' }, { 'm.json': JSON.stringify([{ channel: 'email', to: 'ann@example.com', body: 'hi' }, { channel: 'email', to: 'bob@example.com', body: `key ${FORMS[3]}` }]) }],
    ['sync-contacts', { mode: 'sync-contacts', file: 'c.json' }, { 'c.json': JSON.stringify([{ email: 'ann@example.com', city: `x${FORMS[1]}` }]) }],
  ])('%s: content holding the key in any form is refused before any request', async (_, inputs, files) => {
    requests = 0;
    const r = await runStep({ 'api-key': KEY, 'base-url': url, ...inputs }, { files, event: { note: `see ${FORMS[2]}` } });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/holds the API key \(in some form\)/);
    expect(requests).toBe(0);
    for (const form of FORMS) expect(leaks(r, form)).toEqual([]);
  });
});
