import { ApiError, inputError } from './errors.ts';
import type { ListPage } from './types.ts';

export const MAX_PAGE_SIZE = 100; // spec §4: limit is capped at 100

export type PageFetcher<T> = (cursor: string | undefined) => Promise<ListPage<T>>;

/**
 * Cursor pagination of spec §4: the cursor is opaque, handed back as `starting_after` exactly as
 * received, and the walk stops when `has_more` is false. A cursor seen twice stops the walk with an
 * error rather than looping.
 */
export class Paginator<T> implements AsyncIterable<T> {
  private readonly fetchPage: PageFetcher<T>;
  private readonly startingAfter?: string;

  constructor(fetchPage: PageFetcher<T>, startingAfter?: string) {
    this.fetchPage = fetchPage;
    this.startingAfter = startingAfter;
  }

  async *pages(): AsyncGenerator<ListPage<T>> {
    const seen = new Set<string>();
    let cursor = this.startingAfter;
    for (;;) {
      const page = await this.fetchPage(cursor);
      yield page;
      if (!page.meta?.has_more) return;
      const nextCursor = page.meta.next_cursor;
      if (typeof nextCursor !== 'string' || nextCursor === '') {
        throw new ApiError({ status: 0, type: 'transport_error', code: 'transport_error', message: 'The service said has_more but gave no next_cursor.' });
      }
      if (seen.has(nextCursor)) {
        throw new ApiError({ status: 0, type: 'transport_error', code: 'repeated_cursor', message: 'The service returned a cursor it had already returned; the listing stopped to avoid a loop.' });
      }
      seen.add(nextCursor);
      cursor = nextCursor;
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<T> {
    for await (const page of this.pages()) yield* page.data;
  }

  /** Collects at most `max` items (a cap is required: lists can be large). */
  async toArray(options: { max: number }): Promise<T[]> {
    const max = options?.max;
    if (!Number.isInteger(max) || max < 0) throw inputError('toArray needs a whole-number cap `max`.', 'max');
    const items: T[] = [];
    if (max === 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= max) break;
    }
    return items;
  }
}

/** The page size to ask for: the caller's bound, at most the service's cap; all → the cap. */
export function pageSizeFor(wanted?: number): number {
  if (wanted === undefined || !Number.isFinite(wanted)) return MAX_PAGE_SIZE;
  return Math.max(1, Math.min(MAX_PAGE_SIZE, Math.floor(wanted)));
}
