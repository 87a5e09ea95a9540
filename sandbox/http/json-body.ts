/** The body checks of a POST, in the documented order: Content-Type, size, JSON, a JSON object. */
import type { IncomingMessage } from 'node:http';
import type { Fail, Reply } from '../replies.ts';
import { T, err, isPlainObject } from '../util.ts';
import type { RawBody } from './body.ts';

export function parseJsonObject(fail: Fail, req: IncomingMessage, body: RawBody, maxBytes: number): { value: Record<string, unknown> } | Reply {
  const ct = String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (ct !== 'application/json')
    return fail(400, err(T.invalid, 'request_refused', 'The request body must be JSON, sent with "Content-Type: application/json".', 'Content-Type'));
  if (body.tooLarge) return fail(400, err(T.invalid, 'request_refused', `The request body exceeds ${maxBytes} bytes.`));
  let parsed: unknown;
  try {
    parsed = JSON.parse(body.raw ? body.raw.toString('utf8') : '');
  } catch {
    return fail(400, err(T.invalid, 'request_refused', 'The request body is not valid JSON.'));
  }
  if (!isPlainObject(parsed))
    return fail(422, err(T.invalid, 'validation_failed', `The request body must be a JSON object, got ${parsed === null ? 'null' : Array.isArray(parsed) ? 'array' : typeof parsed}.`));
  return { value: parsed };
}
