/**
 * `mode: batch` — one message per row of a data file. A row's own `body`/`subject` are data, sent as
 * written; the `body`/`subject` inputs are templates for rows without one, and may read the row (`row.*`).
 * The file is streamed twice (two-pass.ts): every row is checked before the first call, then sent in
 * groups, so memory holds a group, not the file.
 */
import { chunkIdempotencyKey, MAX_BATCH_MESSAGES, refusedText, takesSubject } from '../../../src/index.ts';
import { ACTION_WORDS } from '../surface-words.ts';
import type { ApiError, ChunkKeyInput, MessageElement } from '../../../src/index.ts';
import { notAttemptedError } from '../../../src/resources/chunk-errors.ts';
import { InputError } from '../inputs.ts';
import { maskRecipient } from '../mask.ts';
import { addRow } from '../report.ts';
import { render, TemplateError } from '../template.ts';
import { addMessageResults, finishMessageOutcome, newTotals } from './message-results.ts';
import { bodyTemplate, errorFields, openRecords, rowLevel, text, writeKeys } from './shared.ts';
import type { ModeContext, RecordSource } from './shared.ts';
import { changedError, GroupDigests } from './two-pass.ts';

const MESSAGE_FIELDS = new Set(['channel', 'to', 'subject', 'body']);
/** Messages handed to the client at once: two calls, as many as it runs in parallel. */
const GROUP = MAX_BATCH_MESSAGES * 2;
/** Names of fields used only as template variables listed in the log (a JSON Lines file may have many). */
const EXTRA_FIELDS_LISTED = 50;

function message(ctx: ModeContext, row: Record<string, unknown>, bodyDefault: string): MessageElement | string {
  const s = ctx.settings;
  const channel = text(row.channel) ?? s.channel;
  const to = row.to;
  if (typeof to === 'number') return `"to" is a number: write it as text (quoted), in international format with its "+"`;
  const missing = [!channel && 'channel', !(typeof to === 'string' && to.trim()) && 'to', !(text(row.body) ?? bodyDefault).trim() && 'body'].filter(Boolean) as string[];
  if (missing.length) return `missing ${missing.join(', ')}${missing.includes('channel') ? ' (or set the channel input)' : ''}${missing.includes('body') ? ' (or set the body input)' : ''}`;
  const scope = { ...ctx.scope, row };
  try {
    const body = text(row.body) ?? render(bodyDefault, scope, 'body input');
    const subject = text(row.subject) ?? (s.subject && takesSubject(channel!) ? render(s.subject, scope, 'subject input') : undefined);
    const m = { channel: channel!, to: (to as string).trim(), body, ...(subject !== undefined ? { subject } : {}) };
    return ctx.log.holdsSecret(m) ? 'the message holds the API key (in some form): it is never sent' : m;
  } catch (error) {
    if (error instanceof TemplateError) return error.message;
    throw error;
  }
}

/** Pass 1: every row checked (each invalid one annotated), the groups' digests and the first chunk's messages. */
async function check(ctx: ModeContext, source: RecordSource, bodyDefault: string) {
  const { log } = ctx;
  const path = source.file.path;
  const digests = new GroupDigests(GROUP);
  const firstChunk: MessageElement[] = [];
  const extra = new Set<string>();
  let rows = 0;
  let invalid = 0;
  let first: { line: number; message: string } | undefined;
  for await (const { line, value } of source.records()) {
    rows += 1;
    for (const k of Object.keys(value)) if (!MESSAGE_FIELDS.has(k) && extra.size < EXTRA_FIELDS_LISTED) extra.add(k);
    const m = message(ctx, value, bodyDefault);
    if (typeof m !== 'string') {
      if (!invalid) digests.add(m);
      if (firstChunk.length < MAX_BATCH_MESSAGES) firstChunk.push(m);
      continue;
    }
    invalid += 1;
    const forget = log.remember(typeof value.to === 'string' ? [value.to.trim()] : []);
    log.annotate('error', `Invalid message: ${m}`, { file: path, startLine: line });
    first ??= { line, message: log.mask(m) };
    forget();
  }
  digests.end();
  if (rows === 0) throw new InputError('file', `${path} holds no messages.`);
  ctx.report.file = path;
  if (first) throw new InputError('file', `${invalid} of ${rows} message(s) in ${path} are invalid (first, ${path}:${first.line}: ${first.message}); nothing was sent.`);
  if (extra.size) log.info(`Fields used only as template variables (row.*), not sent: ${[...extra].map((k) => JSON.stringify(k)).join(', ')}.`);
  return { digests, firstChunk };
}

export async function batchMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report, log } = ctx;
  if (!s.file) throw new InputError('file', 'is required in batch mode: a JSON, YAML, CSV or JSON Lines file of messages.');
  const source = openRecords(ctx, 'file', s.file, ['messages'], 'message');
  const path = source.file.path;
  const bodyDefault = bodyTemplate(ctx).template;
  const { digests, firstChunk } = await check(ctx, source, bodyDefault);
  const count = digests.count;
  const { keys, first } = writeKeys(ctx, null, firstChunk, MAX_BATCH_MESSAGES, count);
  report.idempotencyKey = first;
  report.details.push([
    { label: 'File', value: path, code: true },
    { label: 'Messages', value: count },
  ]);
  if (!s.dryRun) log.info(`Sending ${count} message(s) from ${path}…`);

  // Pass 2. One call's worth or less goes to the client as one list, keyed exactly as it always was; a
  // longer file goes in groups whose chunks are numbered on from the groups before (the same keys).
  const chunks = Math.ceil(count / MAX_BATCH_MESSAGES);
  let chunkBase = 0;
  const keyOf = (c: ChunkKeyInput, offset: number): string => {
    const chunk = chunkBase + c.chunk;
    return typeof keys === 'string' ? chunkIdempotencyKey(keys, chunk, chunks) : keys({ ...c, chunk, offset: offset + c.offset, chunks });
  };
  const totals = newTotals();
  const onChunk = ctx.onChunk('messages');
  let stopped: ApiError | undefined;
  let sent = 0;
  let group = 0;
  let items: MessageElement[] = [];
  let lines: number[] = [];
  const sendGroup = async (): Promise<void> => {
    if (!items.length) return;
    if (!digests.matches(group++, items)) throw changedError(path, lines[0], `${totals.sent} message(s) were sent before it.`);
    const offset = sent;
    const describe = (i: number) => ({ line: lines[i - offset], recipient: maskRecipient(items[i - offset].to) });
    if (s.dryRun) {
      items.forEach((_, i) => addRow(report, { index: offset + i, ...describe(offset + i), status: 'dry-run' }));
    } else if (stopped) {
      // An earlier call failed as a whole: like the client's own later chunks, these are not attempted.
      const error = errorFields(ctx, notAttemptedError(stopped));
      for (let at = 0, n = 0; at < items.length; at += MAX_BATCH_MESSAGES, n++) {
        const chunk = items.slice(at, at + MAX_BATCH_MESSAGES);
        const key = keyOf({ chunk: n, offset: at, items: chunk, chunks }, offset);
        chunk.forEach((_, i) => addRow(report, { index: offset + at + i, ...describe(offset + at + i), key, status: 'not_attempted', error }));
      }
      totals.notAttempted += items.length;
      chunkBase += Math.ceil(items.length / MAX_BATCH_MESSAGES);
    } else {
      const forget = log.remember(items.map((m) => m.to));
      let used = 0;
      const idempotencyKey =
        count <= MAX_BATCH_MESSAGES
          ? keys
          : (c: ChunkKeyInput) => {
              used = Math.max(used, c.chunk + 1);
              return keyOf(c, offset);
            };
      const outcome = await ctx.client().messages.sendBatch(items, { idempotencyKey, onChunk: (e) => onChunk({ ...e, chunk: chunkBase + e.chunk, chunks: Math.max(chunks, e.chunks), offset: offset + e.offset }) });
      addMessageResults(ctx, totals, outcome.results, offset, describe);
      for (const r of outcome.results) {
        if (r.status === 'failed' && !r.wholeCall) log.annotate(rowLevel(ctx), refusedText('message', r.error, { words: ACTION_WORDS }), { file: path, startLine: lines[r.index] });
      }
      stopped = outcome.error;
      chunkBase += used;
      forget();
    }
    sent += items.length;
    items = [];
    lines = [];
  };
  try {
    for await (const { line, value } of source.records()) {
      const m = message(ctx, value, bodyDefault);
      if (typeof m === 'string' || sent + items.length >= count) throw changedError(path, line, `${totals.sent} message(s) were sent before it.`);
      items.push(m);
      lines.push(line);
      if (items.length === GROUP) await sendGroup();
    }
    await sendGroup();
    if (sent !== count) throw changedError(path, undefined, `${totals.sent} message(s) were sent before it.`);
  } finally {
    // Also when the file changed: what was sent before is reported (rows, counts, outputs).
    if (!s.dryRun) finishMessageOutcome(ctx, totals, stopped);
  }
}
