/** The body checks of a POST, in the documented order: Content-Type, size, depth, JSON, a JSON object. */
import type { IncomingMessage } from 'node:http';
import type { Fail, Reply } from '../replies.ts';
import { T, err, isPlainObject } from '../util.ts';
import type { RawBody } from './body.ts';
import { deeperThan } from './body.ts';

export interface BodyLimits {
  maxBytes: number;
  maxDepth: number;
}

export function isJsonContentType(req: IncomingMessage): boolean {
  return String(req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase() === 'application/json';
}

/** Content-Type, size, depth and syntax of a JSON body; `allowEmpty` maps an empty body to `{}`. */
export function parseJson(fail: Fail, req: IncomingMessage, body: RawBody, limits: BodyLimits, allowEmpty = false): { value: unknown } | Reply {
  if (!isJsonContentType(req))
    return fail(400, err(T.invalid, 'request_refused', 'The request body must be JSON, sent with "Content-Type: application/json".', 'Content-Type'));
  if (body.tooLarge) return fail(413, err(T.invalid, 'request_refused', `The request body exceeds ${limits.maxBytes} bytes; split it into smaller requests.`));
  const text = body.raw ? body.raw.toString('utf8') : '';
  if (allowEmpty && text.trim() === '') return { value: {} };
  if (deeperThan(text, limits.maxDepth)) return fail(400, err(T.invalid, 'request_refused', `The request body is nested deeper than ${limits.maxDepth} levels.`));
  try {
    return { value: JSON.parse(text) };
  } catch {
    return fail(400, err(T.invalid, 'request_refused', 'The request body is not valid JSON.'));
  }
}

export function parseJsonObject(fail: Fail, req: IncomingMessage, body: RawBody, limits: BodyLimits): { value: Record<string, unknown> } | Reply {
  const parsed = parseJson(fail, req, body, limits);
  if ('status' in parsed) return parsed;
  const v = parsed.value;
  if (!isPlainObject(v)) return fail(422, err(T.invalid, 'validation_failed', `The request body must be a JSON object, got ${v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v}.`));
  return { value: v };
}
