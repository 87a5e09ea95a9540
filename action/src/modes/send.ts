/** `mode: send` — one message to every recipient of `to` and `to-file`. */
import { MAX_RECIPIENTS, refusedText, splitRecipients } from '../../../src/index.ts';
import type { SendMessageInput } from '../../../src/index.ts';
import { InputError } from '../inputs.ts';
import { addRow } from '../report.ts';
import { maskRecipient } from '../mask.ts';
import { subjectNotSentNotice, takesSubject } from '../../../src/index.ts';
import { applyMessageOutcome } from './message-results.ts';
import { bodyTemplate, PREVIEW_CHARS, readRecords, renderInput, rowLevel, text, writeKeys } from './shared.ts';
import type { ModeContext } from './shared.ts';
import { ACTION_WORDS } from '../surface-words.ts';

/** Recipients of `to-file` with the line each was read from, so a refused one is annotated there. */
async function recipientsFromFile(ctx: ModeContext, path: string, channel: string): Promise<{ file: string; found: { to: string; line: number }[] }> {
  const { file, records } = await readRecords(ctx, 'to-file', path, ['recipients', 'contacts', 'to'], 'recipient');
  const found: { to: string; line: number }[] = [];
  let missing = 0;
  for (const { line, value: v } of records) {
    const value = text(v.value) ?? text(v.to) ?? text(v[channel]);
    if (value) found.push({ to: value.trim(), line });
    else missing += 1;
  }
  if (missing) ctx.log.info(`${file.path}: ${missing} row(s) have no "to" or "${channel}" value and are skipped.`);
  return { file: file.path, found };
}

export async function sendMode(ctx: ModeContext): Promise<void> {
  const { settings: s, report, log } = ctx;
  if (!s.channel) throw new InputError('channel', 'is required in send mode (e.g. whatsapp or email).');
  const fromFile = s.toFile ? await recipientsFromFile(ctx, s.toFile, s.channel) : undefined;
  const all = [...splitRecipients(s.to), ...(fromFile?.found.map((r) => r.to) ?? [])];
  const to = [...new Set(all)];
  const lineOf = new Map<string, number>();
  for (const r of fromFile?.found ?? []) if (!lineOf.has(r.to)) lineOf.set(r.to, r.line);
  if (to.length === 0) throw new InputError('to', 'no recipients: give them in "to" (one per line or separated by commas) or in a file named by "to-file".');
  for (const r of to) log.known.add(r);
  if (all.length !== to.length) log.info(`${all.length - to.length} duplicate recipient(s) left out.`);
  const { input, template } = bodyTemplate(ctx);
  if (!template.trim()) throw new InputError('body', 'is required in send mode (or body-file).');
  const body = renderInput(ctx, input, template);
  if (s.subject && !takesSubject(s.channel)) log.info(subjectNotSentNotice([s.channel]));
  const subject = s.subject && takesSubject(s.channel) ? renderInput(ctx, 'subject', s.subject) : undefined;
  const content = { channel: s.channel, body, ...(subject !== undefined ? { subject } : {}) };
  const message: SendMessageInput = { ...content, to };
  report.details.push([
    { label: 'Channel', value: s.channel },
    { label: 'Recipients', value: to.length },
  ]);
  if (subject !== undefined) report.details.push([{ label: 'Subject', value: log.mask(subject) }]);
  report.details.push([{ label: 'Body', value: log.mask(body.length > PREVIEW_CHARS ? `${body.slice(0, PREVIEW_CHARS)}…` : body) }]);
  // After the details: the summary shows (with the key masked) what would have been sent.
  for (const [name, value] of [['to', to.join('\n')], [input, body], ['subject', subject ?? '']]) {
    if (log.holdsSecret(value)) throw new InputError(name, 'holds the API key (in some form): it is never sent, so nothing was sent.');
  }
  const { keys, first } = writeKeys(ctx, content, to, MAX_RECIPIENTS);
  report.idempotencyKey = first;
  if (s.dryRun) {
    to.forEach((r, index) => addRow(report, { index, recipient: maskRecipient(r), status: 'dry-run' }));
    return;
  }
  log.info(`Sending one ${s.channel} message to ${to.length} recipient(s)…`);
  const outcome = await ctx.client().messages.send(message, { idempotencyKey: keys, onChunk: ctx.onChunk('recipients') });
  applyMessageOutcome(ctx, outcome, (i) => ({ recipient: maskRecipient(to[i]), line: lineOf.get(to[i]) }));
  if (fromFile) report.file = fromFile.file;
  for (const r of outcome.results) {
    if (r.status !== 'failed' || r.wholeCall) continue;
    const line = lineOf.get(to[r.index]);
    log.annotate(rowLevel(ctx), refusedText('recipient', r.error, { words: ACTION_WORDS }), line ? { file: fromFile!.file, startLine: line } : {});
  }
}
