/**
 * Everything the action shows passes through here. Untrusted text (file contents, field names, service
 * messages) is masked (phone numbers, e-mails, recipients) first. Annotations go through @actions/core's
 * own command escaping (error/warning/notice escape `%`, CR, LF, and `:`/`,` in properties); plain log
 * lines have no escaping in core, so line breaks become ⏎ and `::` cannot start a workflow command.
 */
import { Redactor } from '../../src/redaction.ts';
import { maskText } from './mask.ts';
import type { AnnotationProperties, CoreLike } from './types.ts';

/**
 * The runner shows at most 10 annotations of each kind per step and drops the rest silently. Rows get
 * 9, so the step's own closing error (or warning) is always the tenth.
 */
export const MAX_ANNOTATIONS_PER_KIND = 10;
const ROW_ANNOTATIONS_PER_KIND = MAX_ANNOTATIONS_PER_KIND - 1;

export function plainLine(text: string): string {
  return text.replace(/\r\n|\r|\n/g, ' ⏎ ').replace(/::/g, ':\u200b:');
}

export class Log {
  private readonly core: CoreLike;
  /** Values masked wherever they appear (the recipients of this run). */
  readonly known = new Set<string>();
  /** Annotations not shown because the kind's limit was reached, by kind. */
  readonly overflow = { error: 0, warning: 0, notice: 0 };
  private readonly shown = { error: 0, warning: 0, notice: 0 };
  /** Finds the key in its forms (as given, JSON-escaped, URL-encoded, HTML, base64, …): src/redaction.ts. */
  private secret = new Redactor([], '***');
  private readonly secrets: string[] = [];

  constructor(core: CoreLike) {
    this.core = core;
  }

  /**
   * Masks a secret (the key, a proxy's credentials) from now on: `::add-mask::` for the runner's log (its masker adds the JSON, URL and base64
   * encodings of a mask itself), and `clean`/`mask` remove every form from what the action writes — the
   * summary, outputs and results file, which the runner does not mask, and every log line.
   */
  addSecret(secret: string): void {
    this.core.setSecret(secret);
    this.secrets.push(secret);
    this.secret = new Redactor(this.secrets, '***');
  }

  /**
   * Masks `values` verbatim (the recipients of the rows in hand) until the returned function is called:
   * a streamed file's recipients are known only while their rows are, so memory does not grow with it.
   */
  remember(values: Iterable<string>): () => void {
    const added = [...values].filter((v) => v && !this.known.has(v));
    for (const v of added) this.known.add(v);
    return () => {
      for (const v of added) this.known.delete(v);
    };
  }

  /** True when a text of `value` (a string, or any key or value inside it) holds the key in any of its forms: such content is never sent. */
  holdsSecret(value: unknown): boolean {
    if (typeof value === 'string') return this.secret.finds(value);
    if (Array.isArray(value)) return value.some((v) => this.holdsSecret(v));
    if (value && typeof value === 'object') return Object.entries(value).some(([k, v]) => this.holdsSecret(k) || this.holdsSecret(v));
    return value !== undefined && value !== null && this.holdsSecret(String(value));
  }

  /** `text` without the key in any of its forms. */
  clean(text: string): string {
    return this.secret.redact(text);
  }

  mask(text: string): string {
    return maskText(this.clean(text), this.known);
  }

  info(text: string): void {
    this.core.info(plainLine(this.mask(text)));
  }

  annotate(kind: 'error' | 'warning' | 'notice', message: string, properties: AnnotationProperties = {}): void {
    if (this.shown[kind] >= ROW_ANNOTATIONS_PER_KIND) {
      this.overflow[kind] += 1;
      return;
    }
    this.shown[kind] += 1;
    const props = { title: 'Messaging Service', ...properties };
    if (props.file) props.file = this.mask(props.file);
    this.core[kind](this.mask(message), props);
  }

  /** One line in the summary per kind that overflowed: "and N more". */
  overflowNotes(): string[] {
    return (['error', 'warning', 'notice'] as const)
      .filter((k) => this.overflow[k])
      .map((k) => `${ROW_ANNOTATIONS_PER_KIND} ${k} annotations shown, and ${this.overflow[k]} more (the runner shows ${MAX_ANNOTATIONS_PER_KIND} of each kind): every row is in the table below and in results-file.`);
  }
}
