/** Reading a request body up to the configured limit. */
import type { IncomingMessage } from 'node:http';

export interface RawBody {
  raw: Buffer | null;
  tooLarge: boolean;
}

/** Reads the whole body; past `max` bytes it keeps draining but stops storing and reports tooLarge. */
export function readBody(req: IncomingMessage, max: number): Promise<RawBody> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = Number(req.headers['content-length'] ?? 0) > max;
    req.on('data', (c: Buffer) => {
      if (tooLarge) return;
      size += c.length;
      if (size > max) {
        tooLarge = true;
        chunks.length = 0;
      } else chunks.push(c);
    });
    req.on('error', () => {});
    req.on('end', () => {
      const raw = chunks.length === 0 ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      resolve({ raw, tooLarge });
    });
  });
}
