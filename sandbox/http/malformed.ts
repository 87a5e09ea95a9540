/** Requests Node's HTTP parser rejects (garbage, oversized headers): answered with the JSON envelope, then closed. */
import type { Server } from 'node:http';
import type { Fail } from '../replies.ts';
import { T, err, newId } from '../util.ts';

export function answerMalformed(server: Server, fail: Fail): void {
  server.on('clientError', (e: NodeJS.ErrnoException, socket) => {
    if (!socket.writable || e.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    const status = e.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
    const body = JSON.stringify(fail(400, err(T.invalid, 'request_refused', `Malformed HTTP request (${e.code ?? 'parse error'}).`)).body);
    socket.end(
      `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\nContent-Type: application/json\r\nX-Request-Id: ${newId('req')}\r\n` +
        `Access-Control-Allow-Origin: *\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
}
