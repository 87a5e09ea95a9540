/** Reading a request body up to the configured limit, and no further. */
import type { IncomingMessage } from 'node:http';

export interface RawBody {
  raw: Buffer | null;
  /**
   * The body passed the limit: reading stopped there (or never started, when Content-Length said so).
   * The answer is sent at once and the connection is closed, since the rest of the body is never read.
   */
  tooLarge: boolean;
}

export function readBody(req: IncomingMessage, max: number): Promise<RawBody> {
  if (Number(req.headers['content-length'] ?? 0) > max) return Promise.resolve({ raw: null, tooLarge: true });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (c: Buffer): void => {
      size += c.length;
      if (size <= max) {
        chunks.push(c);
        return;
      }
      req.off('data', onData);
      req.pause();
      resolve({ raw: null, tooLarge: true });
    };
    req.on('data', onData);
    req.on('error', () => {});
    req.on('end', () => resolve({ raw: chunks.length === 0 ? null : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks), tooLarge: false }));
  });
}

/** JSON nested deeper than `max` containers? A linear scan of the text, so no parser or recursion ever meets the depth. */
export function deeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}
