import { normalizeBaseUrl } from './base-url.ts';
import type { ClientCore } from './core.ts';
import { inputError } from './errors.ts';
import { randomIdempotencyKey, sha256Hex } from './idempotency.ts';
import { DEFAULT_MAX_PAGES } from './pagination.ts';
import { processLimiters } from './rate-limiter.ts';
import type { LimiterRegistry } from './rate-limiter.ts';
import { RequestSender } from './request-sender.ts';
import type { ClientEvent } from './request-sender.ts';
import { DEFAULT_RETRY } from './retry-policy.ts';
import type { RetryOptions } from './retry-policy.ts';
import type { Runtime } from './runtime.ts';
import { AccountResource } from './resources/account.ts';
import { ContactAttributes } from './resources/contact-attributes.ts';
import { Contacts } from './resources/contacts.ts';
import { Jobs } from './resources/jobs.ts';
import { Messages } from './resources/messages.ts';

/** The default bound on one call's body: under the 5 MiB the sandbox takes (the service's limit is not shown). */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export interface ClientOptions {
  /** Base URL ending in /v1; https, or http on loopback. */
  baseUrl: string;
  runtime: Runtime;
  /**
   * The API key, sent only as `Authorization: Bearer …`. Omit it when the transport authenticates
   * (n8n's httpRequestWithAuthentication) and pass `limiterId` instead.
   */
  apiKey?: string;
  /** Identifies the key for the shared limiter when `apiKey` is not given (e.g. a hash of it). */
  limiterId?: string;
  /**
   * The key, only to remove it from everything the client hands back, when `apiKey` is not given
   * because the transport authenticates (n8n). Never sent.
   */
  redactKey?: string;
  /** Limiters shared per key; defaults to the process-wide registry. */
  limiters?: LimiterRegistry;
  /** Chunks in flight at once (default 2). */
  concurrency?: number;
  /** Most time one operation may spend waiting for rate windows (default 5 minutes). */
  maxWaitMs?: number;
  /**
   * Bound on one call's JSON body in bytes (default 4 MiB): chunks are cut by size as well as count.
   * The service's own limit is not shown; a call it refuses as too large (413) is split in half.
   */
  maxBodyBytes?: number;
  /**
   * Most pages one list walk fetches before it stops with `page_cap_reached` (default 10,000): the
   * cursor is opaque and never compared, so this is what ends a listing that never ends.
   */
  maxPages?: number;
  retry?: Partial<RetryOptions>;
  userAgent?: string;
  /** Default: a random UUID per logical write. */
  idempotencyKeyFactory?: () => string;
  onEvent?: (event: ClientEvent) => void;
}

/** The service's API: every endpoint of the spec, with chunking, retries, pacing and polling. */
export class MessagingClient {
  readonly messages: Messages;
  readonly contacts: Contacts;
  readonly contactAttributes: ContactAttributes;
  readonly jobs: Jobs;
  readonly account: AccountResource;
  readonly baseUrl: string;

  constructor(options: ClientOptions) {
    const runtime = options?.runtime;
    if (!runtime) throw inputError('The client needs a runtime (transport, sleep, now, random).', 'runtime');
    for (const part of ['transport', 'sleep', 'now', 'random'] as const) {
      if (typeof runtime[part] !== 'function') {
        throw inputError(`The runtime has no ${part} function${part === 'transport' ? ': pass one, e.g. nodeRuntime(undiciTransport()) or nodeRuntime(fetchTransport())' : ''}.`, `runtime.${part}`);
      }
    }
    if (options.apiKey !== undefined && (typeof options.apiKey !== 'string' || !options.apiKey.trim())) {
      throw inputError('The API key is empty.', 'apiKey');
    }
    const concurrency = options.concurrency ?? 2;
    if (!Number.isInteger(concurrency) || concurrency < 1) throw inputError('concurrency must be a whole number ≥ 1.', 'concurrency');
    const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    if (!Number.isInteger(maxBodyBytes) || maxBodyBytes < 1024) throw inputError('maxBodyBytes must be a whole number of bytes ≥ 1024.', 'maxBodyBytes');
    const apiKey = options.apiKey?.trim();
    const redactKey = typeof options.redactKey === 'string' && options.redactKey.trim() ? options.redactKey.trim() : undefined;
    this.baseUrl = normalizeBaseUrl(options.baseUrl, apiKey ?? redactKey);
    const limiterId = apiKey ? sha256Hex(`${this.baseUrl}\u0000${apiKey}`) : `${this.baseUrl}\u0000${options.limiterId ?? ''}`;
    const sender = new RequestSender({
      baseUrl: this.baseUrl,
      runtime: options.runtime,
      limiter: (options.limiters ?? processLimiters).for(limiterId),
      retry: { ...DEFAULT_RETRY, ...options.retry },
      apiKey,
      redactKey,
      userAgent: options.userAgent,
      onEvent: options.onEvent,
    });
    const core: ClientCore = {
      sender,
      runtime: options.runtime,
      concurrency,
      maxWaitMs: options.maxWaitMs ?? 5 * 60_000,
      maxBodyBytes,
      maxPages: options.maxPages ?? DEFAULT_MAX_PAGES,
      newIdempotencyKey: options.idempotencyKeyFactory ?? randomIdempotencyKey,
    };
    this.jobs = new Jobs(core);
    this.messages = new Messages(core);
    this.contacts = new Contacts(core, this.jobs);
    this.contactAttributes = new ContactAttributes(core);
    this.account = new AccountResource(core);
  }
}
