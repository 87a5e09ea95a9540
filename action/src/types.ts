/**
 * The parts of @actions/core and of @actions/github's `context` the action uses, as structural types:
 * `index.ts` passes the real modules, tests pass plain objects (no module mocking). Kept here rather than
 * `import type` from the ESM-only packages so CommonJS test files can import them too.
 */

export interface AnnotationProperties {
  title?: string;
  file?: string;
  startLine?: number;
  endLine?: number;
  startColumn?: number;
  endColumn?: number;
}

export interface SummaryLike {
  addRaw(text: string, addEOL?: boolean): SummaryLike;
  write(options?: { overwrite?: boolean }): Promise<unknown>;
}

export interface CoreLike {
  getInput(name: string, options?: { required?: boolean; trimWhitespace?: boolean }): string;
  setOutput(name: string, value: unknown): void;
  setSecret(secret: string): void;
  setFailed(message: string | Error): void;
  info(message: string): void;
  debug(message: string): void;
  warning(message: string | Error, properties?: AnnotationProperties): void;
  error(message: string | Error, properties?: AnnotationProperties): void;
  notice(message: string | Error, properties?: AnnotationProperties): void;
  summary: SummaryLike;
}

/** The run context, shaped like @actions/github's `Context` (numbers may be NaN there: guarded). */
export interface ContextLike {
  payload: Record<string, unknown>;
  eventName?: string;
  sha?: string;
  ref?: string;
  workflow?: string;
  action?: string;
  actor?: string;
  job?: string;
  runId?: number | string;
  runNumber?: number | string;
  runAttempt?: number | string;
  serverUrl?: string;
  apiUrl?: string;
}
