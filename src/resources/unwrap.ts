/**
 * Single-object reads answer `{ data: {...} }` (as `POST /contacts/bulk` does, spec §4); a bare object
 * is accepted too, since the read shapes are "not shown".
 */
export function unwrap<T>(body: { data?: T } | T): T {
  const data = (body as { data?: T })?.data;
  return data !== undefined && data !== null && typeof data === 'object' && !Array.isArray(data) ? data : (body as T);
}
