/**
 * Contact attributes typed by the service (`GET /contact-attributes`: `{ key, type }`, other fields not
 * shown): text read from CSV/YAML becomes the number or boolean the attribute takes. A value that
 * cannot be converted is a row error at the row's line, and that row is not sent.
 */
export type AttributeTypes = Map<string, string>;

export function attributeTypes(list: readonly Record<string, unknown>[]): AttributeTypes {
  const types: AttributeTypes = new Map();
  for (const a of list) if (typeof a.key === 'string' && typeof a.type === 'string') types.set(a.key, a.type);
  return types;
}

const TRUE = new Set(['true', 'yes', '1']);
const FALSE = new Set(['false', 'no', '0']);

/** The contact with typed values, or a message naming the field that could not be converted. */
export function convertAttributes(contact: Record<string, unknown>, types: AttributeTypes): { contact: Record<string, unknown> } | { error: string; param: string } {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(contact)) {
    const type = types.get(field);
    if (typeof value !== 'string' || (type !== 'number' && type !== 'boolean')) {
      out[field] = value;
      continue;
    }
    const v = value.trim();
    if (type === 'number') {
      if (!/^[-+]?\d+(\.\d+)?$/.test(v)) return { error: `attribute "${field}" takes a number, got "${value}"`, param: field };
      out[field] = Number(v);
    } else if (TRUE.has(v.toLowerCase())) out[field] = true;
    else if (FALSE.has(v.toLowerCase())) out[field] = false;
    else return { error: `attribute "${field}" takes true or false, got "${value}"`, param: field };
  }
  return { contact: out };
}
