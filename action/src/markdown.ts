/**
 * Text from the event payload, files or the service, made safe to write into the job summary (GitHub
 * Flavored Markdown, HTML allowed): it stays text on its own line, never markup. Line breaks (every kind)
 * become ⏎, control and bidirectional-override characters are dropped.
 */

const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
// C0/C1 controls but tab and the line breaks above; bidi overrides and isolates (they reorder what is shown).
const INVISIBLE = /[\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f\u202a-\u202e\u2066-\u2069]/g;
const HTML: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

function oneLine(text: string): string {
  return String(text).replace(LINE_BREAKS, ' ⏎ ').replace(INVISIBLE, '');
}

/**
 * Plain text: `&`, `<`, `>` as HTML entities (no tag, comment or autolink can start), and every character
 * that opens inline Markdown (emphasis, links, images, code, strike-through, math, table cells) escaped
 * with a backslash. Safe in a table cell, a list item, a quote and after a label.
 */
export function mdText(text: string | number | undefined): string {
  if (text === undefined || text === '') return '';
  return oneLine(String(text)).replace(/[\\`*_[\]~|$]/g, (c) => `\\${c}`).replace(/[&<>]/g, (c) => HTML[c]);
}

/**
 * A code span: HTML and Markdown inside are shown as written (CommonMark), so only its fence matters: one
 * backtick more than the longest run inside. In a table cell `|` still splits the row, so it is escaped
 * there (GFM resolves `\|` before the code span).
 */
export function mdCode(text: string | number | undefined, inTable = false): string {
  if (text === undefined || text === '') return '';
  let value = oneLine(String(text));
  if (inTable) value = value.replace(/\|/g, '\\|');
  const longest = Math.max(0, ...(value.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const pad = value.startsWith('`') || value.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${value}${pad}${fence}`;
}
