/**
 * A tiny forward proxy for the action's proxy tests (node:http: CONNECT tunnels and absolute-URI
 * forwarding). It records what it was asked for and whether the request carried the expected
 * Proxy-Authorization (when `auth` is given, an unauthorized request gets 407), and counts the API
 * requests that went through it, tunnelled ones included (their request lines read inside the tunnel).
 */
import { createServer, request } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface LocalProxy {
  port: number;
  url: string;
  /** Each request or tunnel asked for, and whether it carried the expected credentials. */
  asked: { what: string; authorized: boolean }[];
  /** API requests that went through: forwarded ones, plus request lines read inside tunnels. */
  requestsThrough(): number;
  reset(): void;
  close(): Promise<void>;
}

export async function startLocalProxy(options: { auth?: string } = {}): Promise<LocalProxy> {
  const asked: LocalProxy['asked'] = [];
  let through = 0;
  const authorized = (req: IncomingMessage): boolean => options.auth === undefined || req.headers['proxy-authorization'] === options.auth;
  const proxy = createServer((req, res) => {
    asked.push({ what: `${req.method} ${req.url}`, authorized: authorized(req) });
    if (!authorized(req)) return void res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
    through += 1;
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const upstream = request(req.url!, { method: req.method, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    req.pipe(upstream);
  });
  proxy.on('connect', (req, client, head) => {
    asked.push({ what: `CONNECT ${req.url}`, authorized: authorized(req) });
    if (!authorized(req)) return void client.end('HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic\r\n\r\n');
    const [host, port] = String(req.url).split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    client.on('data', (chunk: Buffer) => {
      through += (chunk.toString('latin1').match(/^(GET|POST|PUT|PATCH|DELETE) \/v1\S* HTTP\/1\.1\r$/gm) ?? []).length;
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const port = (proxy.address() as AddressInfo).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    asked,
    requestsThrough: () => through,
    reset() {
      asked.length = 0;
      through = 0;
    },
    close: async () => {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    },
  };
}
