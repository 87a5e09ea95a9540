/**
 * Self-hosted runners behind a proxy: the bundle honours HTTP_PROXY / HTTPS_PROXY / NO_PROXY as the
 * runner sets them. A tiny proxy (node:http: CONNECT tunnels and absolute-URI forwarding) counts what
 * passes through it; the action runs as the runner runs it, against a sandbox.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { RELEASE_EVENT } from './helpers.ts';
import { startLocalProxy, type LocalProxy } from './local-proxy.ts';
import { runStep, useBundleSandbox } from './runner.ts';

const sandbox = useBundleSandbox({});
let proxy: LocalProxy;
let proxyUrl: string;

beforeAll(async () => {
  proxy = await startLocalProxy();
  proxyUrl = proxy.url;
});
afterAll(() => proxy.close());
beforeEach(() => proxy.reset());

const SEND = { mode: 'send', channel: 'email', to: 'ann@example.com, bob@example.com', body: 'Released {{ event.release.tag_name }}' };

test('every request passes through the proxy named by HTTP_PROXY / http_proxy', async () => {
  const r = await runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...SEND }, { event: RELEASE_EVENT, env: { HTTP_PROXY: proxyUrl, http_proxy: proxyUrl } });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe('2');
  const requests = ledgerRows(sandbox).requests;
  expect(requests).toBeGreaterThan(0);
  expect(proxy.requestsThrough()).toBe(requests);
  const host = new URL(sandbox.url).host;
  const seen = proxy.asked.map((a) => a.what);
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((s) => s === `CONNECT ${host}` || s.startsWith(`POST ${sandbox.url}`) || s.startsWith(`GET ${sandbox.url}`))).toBe(true);
});

test('none when the host is in NO_PROXY', async () => {
  const host = new URL(sandbox.url).hostname;
  const r = await runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...SEND }, { event: RELEASE_EVENT, env: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, NO_PROXY: `example.invalid,${host}` } });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe('2');
  expect(proxy.asked).toEqual([]);
  expect(proxy.requestsThrough()).toBe(0);
});

test('an unreachable proxy is a transport failure, never a silent bypass', async () => {
  const r = await runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...SEND, 'max-rate-limit-wait': '1' }, { event: RELEASE_EVENT, env: { HTTP_PROXY: 'http://127.0.0.1:9' } });
  expect(r.code).toBe(1);
  expect(ledgerRows(sandbox).requests).toBe(0);
}, 120000);
