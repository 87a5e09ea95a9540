/**
 * An error as text, one way for every surface: a title (the code and the service's words, at most 80
 * characters: n8n's error title), a description (what to do in the surface's own setting names, then
 * what the title had no room for), one line joining both (the action's annotations, summary and log;
 * the results' outcome lines), and the HTTP status it honestly has (none for a row or a client limit).
 */
import type { ApiError } from './errors.ts';
import { CLIENT_WORDS } from './surface-words.ts';
import type { SurfaceWords } from './surface-words.ts';

export const TITLE_MAX_LENGTH = 80;

export interface ErrorTextOptions {
  /** Where it happened, in the surface's words (an item, a line of a file). */
  where?: string;
  /** The key that settles an unknown outcome. */
  idempotencyKey?: unknown;
  words?: SurfaceWords;
}

/** The HTTP status the error came with, or null: a row refused inside a 200, or a limit of the client's. */
export function httpStatusOf(error: ApiError): number | null {
  return error.status > 0 ? error.status : null;
}

function serviceWords(error: ApiError): string {
  return error.message.replace(/[.\s]+$/, '');
}

/** `code: the service's words`, whole; an unknown outcome says so first (it is not a failure). */
function fullTitle(error: ApiError): string {
  return `${error.outcomeUnknown ? 'Outcome unknown: ' : ''}${error.code}: ${serviceWords(error)}`;
}

/** The full title cut at a word boundary to at most 80 characters. */
export function errorTitle(error: ApiError): string {
  const full = fullTitle(error);
  if (full.length <= TITLE_MAX_LENGTH) return full;
  const cut = full.slice(0, TITLE_MAX_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > TITLE_MAX_LENGTH / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.(-]+$/, '')}…`;
}

/** What to do, then the key that settles an unknown outcome, field, request, doc and where. */
function remedyParts(error: ApiError, options: ErrorTextOptions): string[] {
  const remedy = error.remedyIn(options.words ?? CLIENT_WORDS);
  const parts = [remedy];
  if (error.outcomeUnknown && typeof options.idempotencyKey === 'string') parts.push(`Idempotency key: ${options.idempotencyKey}.`);
  if (error.param && !remedy.includes(error.param) && !error.message.includes(error.param)) parts.push(`(field: ${error.param})`);
  if (error.requestId) parts.push(`[request ${error.requestId}]`);
  if (error.docUrl) parts.push(`See ${error.docUrl}`);
  if (options.where) parts.push(`— ${options.where}`);
  return parts;
}

/** The description under `errorTitle`: the rest of the message when the title was cut, then the remedy parts. */
export function errorDescription(error: ApiError, options: ErrorTextOptions = {}): string {
  const parts = errorTitle(error).endsWith('…') ? [`${serviceWords(error)}.`] : [];
  return [...parts, ...remedyParts(error, options)].join(' ');
}

/** One line: the whole title, then the description's remedy parts. Nothing is said twice. */
export function describeError(error: ApiError, options: ErrorTextOptions = {}): string {
  return [`${fullTitle(error)}.`, ...remedyParts(error, options)].join(' ');
}

/** What a refused input is called when it is named on its own (an annotation, a log line). */
export const REFUSED_LEAD = {
  message: 'Message refused',
  recipient: 'Recipient refused',
  contact: 'Contact not imported',
} as const;

/**
 * The line for one input the service refused (an annotation at its line of a file, or a log line):
 * e.g. `Contact not imported (job job_1, element 2): validation_failed: … Fix the field \`email\`.`
 */
export function refusedText(kind: keyof typeof REFUSED_LEAD, error: ApiError, options: ErrorTextOptions & { which?: string } = {}): string {
  return `${REFUSED_LEAD[kind]}${options.which ? ` (${options.which})` : ''}: ${describeError(error, options)}`;
}
