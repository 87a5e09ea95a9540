/**
 * `mode: batch` — one message per row of a data file. A row's own `body`/`subject` are data, sent as
 * written; the `body`/`subject` inputs are templates for rows without one, and may read the row (`row.*`).
 */
import { describeError, MAX_BATCH_MESSAGES } from '../../../src/index.ts';
import type { MessageElement } from '../../../src/index.ts';
import { InputError } from '../inputs.ts';
import { maskRecipient } from '../mask.ts';
import { render, TemplateError } from '../template.ts';
import { takesSubject } from '../../../src/index.ts';
import { applyMessageOutcome } from './message-results.ts';
import { bodyTemplate, readRecords, rowLevel, text, writeKeys } from './shared.ts';
import type { ModeContext } from './shared.ts';

const MESSAGE_FIELDS = new Set(['channel', 'to', 'subject', 'body']);

function message(ctx: ModeContext, row: Record<string, unknown>, bodyDefault: string): MessageElement | string {
  const s = ctx.settings;
  const channel = text(row.channel) ?? s.channel;
  const to = row.to;
  if (typeof to === 'number') return `"to" is a number: write it as text (quoted), in international format with its "+"`;
  if (typeof to === 'string' && to.trim()) ctx.log.known.add(to.trim());
  const missing = [!channel && 'channel', !(typeof to === 'string' && to.trim()) && 'to', !(text(row.body) ?? bodyDefault).trim() && 'body'].filter(Boolean) as string[];
  if (missing.length) return `missing ${missing.join(', ')}${missing.includes('channel') ? ' (or set the channel input)' : ''}${missing.includes('body') ? ' (or set the body input)' : ''}`;
  const scope = { ...ctx.scope, row };
  try {
    const body = text(row.body) ?? render(bodyDefault, scope, 'body input');
    const subject = text(row.subject) ?? (s.subject && takesSubject(channel!) ? render(s.subject, scope, 'subject input') : undefined);
    return { channel: channel!, to: (to as string).trim(), body, ...(subject !== undefined ? { subject } : {}) };
  } catch (error) {
    if (error instanceof TemplateError) return error.message;
    throw error;
  }
}

export async function batchMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report, log } = ctx;
  if (!s.file) throw new InputError('file', 'is required in batch mode: a JSON, YAML or CSV file of messages.');
  const { file, records } = await readRecords(ctx, 'file', s.file, ['messages'], 'message');
  if (records.length === 0) throw new InputError('file', `${file.path} holds no messages.`);
  report.file = file.path;
  const bodyDefault = bodyTemplate(ctx).template;
  const messages: MessageElement[] = [];
  const problems: { line: number; message: string }[] = [];
  for (const { line, value } of records) {
    const m = message(ctx, value, bodyDefault);
    if (typeof m === 'string') problems.push({ line, message: m });
    else if (log.holdsSecret(m)) problems.push({ line, message: 'the message holds the API key (in some form): it is never sent' });
    else messages.push(m);
  }
  if (problems.length) {
    for (const p of problems) log.annotate('error', `Invalid message: ${p.message}`, { file: file.path, startLine: p.line });
    const first = problems[0];
    throw new InputError('file', `${problems.length} of ${records.length} message(s) in ${file.path} are invalid (first, ${file.path}:${first.line}: ${log.mask(first.message)}); nothing was sent.`);
  }
  const extra = [...new Set(records.flatMap((r) => Object.keys(r.value).filter((k) => !MESSAGE_FIELDS.has(k))))];
  if (extra.length) log.info(`Fields used only as template variables (row.*), not sent: ${extra.map((k) => JSON.stringify(k)).join(', ')}.`);

  const { keys, first } = writeKeys(ctx, null, messages, MAX_BATCH_MESSAGES);
  report.idempotencyKey = first;
  report.details.push([
    { label: 'File', value: file.path, code: true },
    { label: 'Messages', value: messages.length },
  ]);
  const line = (i: number) => records[i].line;
  if (s.dryRun) {
    messages.forEach((m, index) => report.rows.push({ index, line: line(index), recipient: maskRecipient(m.to), status: 'dry-run' }));
    return;
  }
  log.info(`Sending ${messages.length} message(s) from ${file.path}…`);
  const outcome = await ctx.client().messages.sendBatch(messages, { idempotencyKey: keys, onChunk: ctx.onChunk('messages') });
  applyMessageOutcome(ctx, outcome, (i) => ({ line: line(i), recipient: maskRecipient(messages[i].to) }));
  for (const r of outcome.results) {
    if (r.status === 'failed' && !r.wholeCall) log.annotate(rowLevel(ctx), `Message refused: ${describeError(r.error)}`, { file: file.path, startLine: line(r.index) });
  }
}
