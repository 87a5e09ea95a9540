/**
 * JSON with object keys sorted, so equal payloads hash equally whatever their key order. Written with
 * plain loops: bulk writes take it of every input row, often before V8 has optimised anything.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      // A hole stays empty, as Array.prototype.join leaves it (the form slots were first written in).
      if (i in value) out += canonicalJson(value[i] === undefined ? null : value[i]);
    }
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  let out = '{';
  for (const key of keys) {
    const field = record[key];
    if (field === undefined) continue;
    if (out.length > 1) out += ',';
    out += `${JSON.stringify(key)}:${canonicalJson(field)}`;
  }
  return `${out}}`;
}
