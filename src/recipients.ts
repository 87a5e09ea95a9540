/**
 * Recipients as a person writes them: a comma-, semicolon- or newline-separated list (an entry starting
 * with `#` is a comment), or an array (from an n8n expression or a YAML list). Entries are trimmed and
 * empty ones dropped; duplicates are kept (deciding about them is the caller's).
 */
export function splitRecipients(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  const parts = Array.isArray(value) ? value.map((v) => (v === undefined || v === null ? '' : String(v))) : String(value).split(/[,;\n]/);
  return parts.map((p) => p.trim()).filter((p) => p.length > 0 && !p.startsWith('#'));
}
