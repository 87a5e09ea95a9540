/** Writing answers: the headers every API answer carries (request id, CORS) and the socket-level fault. */
import type { IncomingMessage, ServerResponse } from 'node:http';

const EXPOSED = 'X-Request-Id, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After, Idempotent-Replay';

/** §8: a browser may call the API from any origin and read every header the spec names. */
export const CORS: Record<string, string> = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Expose-Headers': EXPOSED };

export const PREFLIGHT: Record<string, string> = {
  'Access-Control-Allow-Methods': 'GET, POST, PATCH, DELETE, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
  'Access-Control-Max-Age': '600',
};

/** Writes an API answer (JSON, or empty when body is null) with the CORS headers, unless the response is already gone. */
export function sendJson(res: ServerResponse, requestId: string, status: number, body: string | null, ...extra: (Record<string, string> | undefined)[]): void {
  writeJson(res, requestId, status, body, CORS, ...extra);
}

/** Writes a JSON answer with no CORS headers (control routes). */
export function writeJson(res: ServerResponse, requestId: string, status: number, body: string | null, ...extra: (Record<string, string> | undefined)[]): void {
  if (res.headersSent || res.destroyed) return;
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'X-Request-Id': requestId };
  for (const e of extra) if (e) Object.assign(headers, e);
  if (body !== null) headers['Content-Length'] = String(Buffer.byteLength(body));
  res.writeHead(status, headers);
  res.end(body ?? undefined);
}

/** The "connection reset" faults: the client sees the socket close with no answer. */
export function destroyConnection(req: IncomingMessage, res: ServerResponse): void {
  res.socket?.destroy();
  req.socket.destroy();
}
