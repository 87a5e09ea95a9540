/**
 * JSON arrays and YAML are whole documents: our parsers (JSON.parse, yaml) hold the text and its tree,
 * about 15× the file at its peak (measured: docs/github-action.md). So a JSON or YAML data file past
 * DOCUMENT_LIMIT_BYTES is refused before any request, naming the formats that stream instead.
 */
import { InputError } from './inputs.ts';

export const DOCUMENT_LIMIT_BYTES = 16 * 1024 * 1024;
/** Tests lower the limit through this variable instead of writing 16 MB files; not an input. */
export const DOCUMENT_LIMIT_ENV = 'MESSAGING_SERVICE_DOCUMENT_LIMIT_BYTES';

function mib(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(bytes < 1024 * 1024 ? 3 : 1)} MiB`;
}

export function documentLimit(env: NodeJS.ProcessEnv): number {
  const given = Number(env[DOCUMENT_LIMIT_ENV]);
  return Number.isInteger(given) && given > 0 ? given : DOCUMENT_LIMIT_BYTES;
}

export function checkDocumentSize(env: NodeJS.ProcessEnv, input: string, path: string, size: number, format: 'json' | 'yaml'): void {
  const limit = documentLimit(env);
  if (size <= limit) return;
  throw new InputError(
    input,
    `${path} is ${size} bytes (${mib(size)}), over the ${limit}-byte (${mib(limit)}) limit for a ${format === 'json' ? 'JSON' : 'YAML'} file, which is read whole; nothing was sent. ` +
      'Write it as CSV or JSON Lines (.jsonl, one JSON object a line, or file-format: jsonl): those are read as streams, at any size.',
  );
}
