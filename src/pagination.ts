import { ApiError, inputError } from './errors.ts';
import type { ListPage } from './types.ts';

export const MAX_PAGE_SIZE = 100; // spec §4: limit is capped at 100

export type PageFetcher<T> = (cursor: string | undefined) => Promise<ListPage<T>>;

/** Default bound on the pages one walk may fetch: 10,000 pages (a million items at the 100 cap). */
export const DEFAULT_MAX_PAGES = 10_000;

/**
 * Cursor pagination of spec §4: the cursor is opaque — handed back as `starting_after` exactly as
 * received, never compared or built — and the walk stops when `has_more` is false. A service that
 * never says `has_more: false` is stopped by a page cap (`maxPages`), with the last cursor to resume.
 */
export class Paginator<T> implements AsyncIterable<T> {
  private readonly fetchPage: PageFetcher<T>;
  private readonly startingAfter?: string;
  private readonly maxPages: number;

  constructor(fetchPage: PageFetcher<T>, startingAfter?: string, maxPages = DEFAULT_MAX_PAGES) {
    if (!Number.isInteger(maxPages) || maxPages < 1) throw inputError('maxPages must be a whole number ≥ 1.', 'maxPages');
    this.fetchPage = fetchPage;
    this.startingAfter = startingAfter;
    this.maxPages = maxPages;
  }

  async *pages(): AsyncGenerator<ListPage<T>> {
    let cursor = this.startingAfter;
    for (let fetched = 0; ; ) {
      if (fetched >= this.maxPages) {
        throw new ApiError({
          status: 0,
          type: 'client_error',
          code: 'page_cap_reached',
          message: `The listing stopped after ${this.maxPages} pages (maxPages) while the service still had more; resume with startingAfter "${cursor}".`,
        });
      }
      const page = await this.fetchPage(cursor);
      fetched += 1;
      yield page;
      if (!page.meta?.has_more) return;
      const nextCursor = page.meta.next_cursor;
      if (typeof nextCursor !== 'string' || nextCursor === '') {
        throw new ApiError({ status: 0, type: 'transport_error', code: 'transport_error', message: 'The service said has_more but gave no next_cursor.' });
      }
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
