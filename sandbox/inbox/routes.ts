/**
 * The inbox: a read-only local page at `/` (like Mailpit for e-mail) showing what the sandbox "delivered".
 * `/` the page, `/inbox/app.js` and `/inbox/style.css` its assets, `/inbox/state` one JSON snapshot,
 * `/inbox/stream` server-sent events saying "changed". Same-origin only: the ControlGuard refuses other
 * origins and hosts, nothing carries CORS, and a strict Content-Security-Policy allows only this origin's
 * script and style (no inline code, no frames, no forms).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ControlGuard } from '../control-guard.ts';
import type { State } from '../state.ts';
import { T, err } from '../util.ts';
import { INBOX_ICON, inboxHtml } from './page.ts';
import { INBOX_JS } from './script.ts';
import { inboxSnapshot } from './snapshot.ts';
import { INBOX_CSS } from './style.ts';

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";
const PAGE_HEADERS = { 'Content-Security-Policy': CSP, 'X-Content-Type-Options': 'nosniff', 'Referrer-Policy': 'no-referrer', 'Cache-Control': 'no-store' };
const ASSETS = new Map<string, { type: string; body: string }>([
  ['/inbox/app.js', { type: 'text/javascript; charset=utf-8', body: INBOX_JS }],
  ['/inbox/style.css', { type: 'text/css; charset=utf-8', body: INBOX_CSS }],
  ['/inbox/icon.svg', { type: 'image/svg+xml', body: INBOX_ICON }],
]);
/** How often open streams are told about changes (at most), in ms. */
const TICK_MS = 500;
const HEARTBEAT_MS = 15_000;

export function isInboxPath(path: string): boolean {
  return path === '/' || path.startsWith('/inbox/');
}

export class Inbox {
  private readonly streams = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | null = null;
  private sentVersion = -1;
  private lastBeat = 0;
  private readonly state: State;
  private readonly guard: ControlGuard;

  constructor(state: State, guard: ControlGuard) {
    this.state = state;
    this.guard = guard;
  }

  handle(req: IncomingMessage, res: ServerResponse, path: string, requestId: string): void {
    const refusal = this.guard.checkSource(req) ?? (req.method === 'GET' || req.method === 'HEAD' ? null : this.state.fail(405, err(T.invalid, 'method_not_allowed', 'The inbox is read-only: use GET.'), { Allow: 'GET, HEAD' }));
    if (refusal) return this.write(res, refusal.status, 'application/json', JSON.stringify(refusal.body), { 'X-Request-Id': requestId, ...refusal.headers });
    if (path === '/') return this.write(res, 200, 'text/html; charset=utf-8', inboxHtml(inboxSnapshot(this.state)));
    const asset = ASSETS.get(path);
    if (asset) return this.write(res, 200, asset.type, asset.body);
    if (path === '/inbox/state') return this.write(res, 200, 'application/json', JSON.stringify(inboxSnapshot(this.state)));
    if (path === '/inbox/stream') return this.openStream(res);
    const missing = this.state.fail(404, err(T.invalid, 'resource_not_found', `No inbox page ${path}.`));
    this.write(res, 404, 'application/json', JSON.stringify(missing.body), { 'X-Request-Id': requestId });
  }

  /** Ends every open stream (the server is closing). */
  close(): void {
    for (const s of this.streams) s.end();
    this.streams.clear();
    this.stopTimer();
  }

  private write(res: ServerResponse, status: number, type: string, body: string, extra?: Record<string, string>): void {
    res.writeHead(status, { ...PAGE_HEADERS, 'Content-Type': type, 'Content-Length': String(Buffer.byteLength(body)), ...extra });
    res.end(res.req.method === 'HEAD' ? undefined : body);
  }

  private openStream(res: ServerResponse): void {
    res.writeHead(200, { ...PAGE_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
    res.write(`retry: 1000\ndata: ${this.state.version}\n\n`);
    this.streams.add(res);
    res.on('close', () => {
      this.streams.delete(res);
      if (this.streams.size === 0) this.stopTimer();
    });
    if (!this.timer) {
      this.timer = setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    }
  }

  /** Tells open streams the state changed (jobs progress lazily, so they are brought up to date first). */
  private tick(): void {
    this.state.observe();
    const now = Date.now();
    const changed = this.state.version !== this.sentVersion;
    if (!changed && now - this.lastBeat < HEARTBEAT_MS) return;
    const line = changed ? `data: ${this.state.version}\n\n` : ': heartbeat\n\n';
    this.sentVersion = this.state.version;
    this.lastBeat = now;
    for (const s of this.streams) s.write(line);
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }
}
