/**
 * The `proxy` input: an explicit proxy URL that wins over HTTP_PROXY / HTTPS_PROXY, still leaves the
 * hosts in NO_PROXY direct, and whose credentials reach the proxy (Proxy-Authorization) but no log,
 * summary or output. A local proxy (node:http: CONNECT tunnels and absolute-URI forwarding) that
 * demands those credentials; the bundle runs as the runner runs it, against a sandbox.
 */
import { RELEASE_EVENT } from './helpers.ts';
import { startLocalProxy, type LocalProxy } from './local-proxy.ts';
import { leaks, runStep, useBundleSandbox } from './runner.ts';
import { ledgerRows } from '../support/ledger-rows.ts';

const USER = 'ci-bot';
const PASSWORD = 'pr0xy-s3cret!';
const AUTH = `Basic ${Buffer.from(`${USER}:${PASSWORD}`).toString('base64')}`;

const sandbox = useBundleSandbox({});
/** A proxy that demands USER:PASSWORD. */
let proxy: LocalProxy;
let proxyPort: number;
let asked: LocalProxy['asked'];

beforeAll(async () => {
  proxy = await startLocalProxy({ auth: AUTH });
  proxyPort = proxy.port;
  asked = proxy.asked;
});
afterAll(() => proxy.close());
beforeEach(() => proxy.reset());

const SEND = { mode: 'send', channel: 'email', to: 'ann@example.com', body: 'Released {{ event.release.tag_name }}' };
/** A proxy nobody listens on: a request sent there would fail the step. */
const DEAD = 'http://127.0.0.1:9';

function withProxy(userinfo: string, env: Record<string, string> = {}) {
  return runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...SEND, proxy: `http://${userinfo}127.0.0.1:${proxyPort}`, 'max-rate-limit-wait': '1' }, { event: RELEASE_EVENT, env });
}

test('the proxy input wins over HTTP_PROXY / HTTPS_PROXY, with its credentials, which are shown nowhere', async () => {
  const r = await withProxy(`${USER}:${encodeURIComponent(PASSWORD)}@`, { HTTP_PROXY: DEAD, http_proxy: DEAD, HTTPS_PROXY: DEAD, https_proxy: DEAD });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe('1');
  expect(asked.length).toBeGreaterThan(0);
  expect(asked.every((a) => a.authorized)).toBe(true);
  expect(r.stdout).toContain(`Requests to the service go through the proxy http://127.0.0.1:${proxyPort} (the proxy input`);
  // Masked for the runner from the start, so not even a dependency's message could show it.
  expect(r.stdout).toContain(`::add-mask::${PASSWORD}`);
  for (const secret of [PASSWORD, encodeURIComponent(PASSWORD)]) expect(leaks(r, secret)).toEqual([]);
});

test('NO_PROXY still sends a listed host direct, even with the proxy input set', async () => {
  const host = new URL(sandbox.url).hostname;
  const r = await withProxy(`${USER}:${encodeURIComponent(PASSWORD)}@`, { NO_PROXY: `example.invalid,${host}` });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe('1');
  expect(asked).toEqual([]);
});

test('wrong proxy credentials fail the step without showing them; nothing reaches the service', async () => {
  const wrong = 'wr0ng-pa55word';
  const r = await withProxy(`${USER}:${wrong}@`);
  expect(r.code).toBe(1);
  expect(asked.length).toBeGreaterThan(0);
  expect(ledgerRows(sandbox).requests).toBe(0);
  expect(r.stdout).toMatch(/407/);
  expect(r.stdout).toContain(`::add-mask::${wrong}`);
  expect(leaks(r, wrong)).toEqual([]);
}, 60000);

test('a proxy that is not an http(s) URL is refused by name, its value not echoed', async () => {
  const r = await runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...SEND, proxy: `socks5://${USER}:${PASSWORD}@127.0.0.1:1080` }, { event: RELEASE_EVENT });
  expect(r.code).toBe(1);
  expect(r.stdout).toMatch(/^::error::Input "proxy": must be an http:\/\/ or https:\/\/ URL/m);
  expect(leaks(r, PASSWORD)).toEqual([]);
  expect(ledgerRows(sandbox).requests).toBe(0);
});
