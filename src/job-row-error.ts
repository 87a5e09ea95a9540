/**
 * The element shape of a job's `errors` is "not shown" (spec §2): read what can be read — an `index`
 * and an error object either nested under `error` or flat — and keep the element itself beside it.
 */
export interface JobRowErrorFields {
  /** The row's index within its job, when the element carries one. */
  index?: number;
  type?: string;
  code?: string;
  message?: string;
  param?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function readJobRowError(element: unknown): JobRowErrorFields {
  const outer = (element && typeof element === 'object' ? element : {}) as Record<string, unknown>;
  const inner = (outer.error && typeof outer.error === 'object' ? outer.error : outer) as Record<string, unknown>;
  const index = outer.index;
  return {
    index: typeof index === 'number' && Number.isInteger(index) && index >= 0 ? index : undefined,
    type: text(inner.type),
    code: text(inner.code),
    message: text(inner.message),
    param: text(inner.param),
  };
}
