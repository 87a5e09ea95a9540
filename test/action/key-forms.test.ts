/**
 * The API key, in any form it comes back in (as given, JSON-escaped, URL-encoded, base64), is masked in the
 * summary, the outputs and the results file, not only in the log. Run as the runner runs the bundle: once
 * with the key inside the event payload (a PR title), once over real HTTP against a service that quotes the
 * Authorization header back in its error.
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

test('a key that also appears in the event payload is masked in the summary, outputs and results file', async () => {
  const title = `Rotate ${FORMS.join(' and ')}`;
  const r = await runStep(
    { 'api-key': KEY, mode: 'send', channel: 'email', to: 'ann@example.com', subject: '{{ event.pull_request.title }}', body: '{{ event.pull_request.title }}', 'dry-run': 'true' },
    { event: { pull_request: { title } }, eventName: 'pull_request_target' },
  );
  expect(r.code).toBe(0);
  expect(r.summary).toMatch(/^\*\*Subject:\*\* Rotate (\\\*){3} and (\\\*){3} and/m);
  for (const form of FORMS) expect(leaks(r, form)).toEqual([]);
});

describe('a service that quotes the key back', () => {
  let server: Server;
  let url: string;

  beforeAll(async () => {
    server = createServer((req, res) => {
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
});
