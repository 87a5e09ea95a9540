/**
 * Self-hosted runners behind a proxy: the bundle honours HTTP_PROXY / HTTPS_PROXY / NO_PROXY as the
 * runner sets them. A tiny proxy (node:http: CONNECT tunnels and absolute-URI forwarding) counts what
 * passes through it; the action runs as the runner runs it, against a sandbox.
 */
import { ledgerRows } from '../support/ledger-rows.ts';
import { existsSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { Server } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { start } from '../../sandbox/server.ts';
import type { Sandbox } from '../../sandbox/server.ts';
import { RELEASE_EVENT } from './helpers.ts';
import { DIST, runStep } from './runner.ts';

let sandbox: Sandbox;
let proxy: Server;
let proxyUrl: string;
const seen: string[] = [];
/** API requests that went through the proxy: forwarded ones, plus request lines read inside tunnels (plain HTTP to the sandbox). */
let requestsThrough = 0;

beforeAll(async () => {
  if (!existsSync(DIST)) throw new Error('action/dist/index.js is missing: run `npm run build:action`');
  sandbox = await start({ port: 0 });
  proxy = createServer((req, res) => {
    // Forward proxying: the request line carries the absolute URL.
    seen.push(`${req.method} ${req.url}`);
    requestsThrough += 1;
    const upstream = request(req.url!, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  proxy.on('connect', (req, client, head) => {
    seen.push(`CONNECT ${req.url}`);
    const [host, port] = String(req.url).split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    client.on('data', (chunk: Buffer) => {
      requestsThrough += (chunk.toString('latin1').match(/^(GET|POST|PUT|PATCH|DELETE) \/v1\S* HTTP\/1\.1\r$/gm) ?? []).length;
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
});
afterAll(async () => {
  proxy.closeAllConnections();
  await new Promise((resolve) => proxy.close(resolve));
  await sandbox.close();
});
beforeEach(() => {
  seen.length = 0;
  requestsThrough = 0;
  sandbox.control.reset();
});

const SEND = { mode: 'send', channel: 'email', to: 'ann@example.com, bob@example.com', body: 'Released {{ event.release.tag_name }}' };

test('every request passes through the proxy named by HTTP_PROXY / http_proxy', async () => {
  const r = await runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...SEND }, { event: RELEASE_EVENT, env: { HTTP_PROXY: proxyUrl, http_proxy: proxyUrl } });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe('2');
  const requests = ledgerRows(sandbox).requests;
  expect(requests).toBeGreaterThan(0);
  expect(requestsThrough).toBe(requests);
  const host = new URL(sandbox.url).host;
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.every((s) => s === `CONNECT ${host}` || s.startsWith(`POST ${sandbox.url}`) || s.startsWith(`GET ${sandbox.url}`))).toBe(true);
});

test('none when the host is in NO_PROXY', async () => {
  const host = new URL(sandbox.url).hostname;
  const r = await runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...SEND }, { event: RELEASE_EVENT, env: { HTTP_PROXY: proxyUrl, HTTPS_PROXY: proxyUrl, NO_PROXY: `example.invalid,${host}` } });
  expect(r.code).toBe(0);
  expect(r.outputs.sent).toBe('2');
  expect(seen).toEqual([]);
  expect(requestsThrough).toBe(0);
});

test('an unreachable proxy is a transport failure, never a silent bypass', async () => {
  const r = await runStep({ 'api-key': 'sk_test_demo_ok', 'base-url': sandbox.url, ...SEND, 'max-rate-limit-wait': '1' }, { event: RELEASE_EVENT, env: { HTTP_PROXY: 'http://127.0.0.1:9' } });
  expect(r.code).toBe(1);
  expect(ledgerRows(sandbox).requests).toBe(0);
}, 120000);
