/** Types shared by the sandbox modules. JSON-compatible configuration plus the control surface. */

export type AccountStatus = 'active' | 'suspended' | 'trashed' | 'deleting';
export type SenderState = 'online' | 'offline' | 'none';

export interface ContactAttributeConfig {
  key: string;
  label?: string;
  type?: 'text' | 'number' | 'boolean' | 'date';
}

export interface AccountConfig {
  id: string;
  name: string;
  status: AccountStatus;
  plan: { name: string; channels: string[]; running: boolean };
  credits: number;
  /** Requests per key per window. */
  rate_limit: number;
  senders: { [channel: string]: SenderState };
  contact_attributes?: ContactAttributeConfig[];
}

export interface KeyConfig {
  key: string;
  account: string;
  scopes: string[];
  expires_at?: string;
  revoked?: boolean;
  label: string;
}

export interface SandboxConfig {
  accounts: AccountConfig[];
  keys: KeyConfig[];
  /** Length of a rate-limit window in whole seconds (>= 1). Default 60. */
  window_seconds: number;
  /** Rows of a bulk import processed per second. 0 = jobs stay queued. Default 200. */
  job_rows_per_second: number;
  docs_url: string;
  /** Largest request body in bytes; past it the answer is 413 at once. Default 5 MiB. */
  max_body_bytes: number;
  /** Deepest JSON nesting (arrays and objects) a body may have; deeper is 400. Default 100. */
  max_json_depth: number;
  /** How long a committed answer is kept for replay under its Idempotency-Key, in seconds. Default 86400. */
  idempotency_retention_seconds: number;
  /** Messages kept in full (body, ledger row, inbox); past it the oldest go, their counts stay. Default 50,000. */
  retain_messages: number;
}

/** A partial account: `id` picks the account; other fields are merged (plan and senders shallowly). */
export type AccountPatch = { id: string } & Partial<Omit<AccountConfig, 'id' | 'plan' | 'senders'>> & {
  plan?: Partial<AccountConfig['plan']>;
  senders?: { [channel: string]: SenderState };
};
/** A partial key: `key` picks the key; other fields are merged. */
export type KeyPatch = { key: string } & Partial<Omit<KeyConfig, 'key'>>;

/** Input accepted by `start({ config })` and `POST /__sandbox/config`: merged over the base config. */
export interface SandboxConfigInput {
  accounts?: AccountPatch[];
  keys?: KeyPatch[];
  window_seconds?: number;
  job_rows_per_second?: number;
  docs_url?: string;
  max_body_bytes?: number;
  max_json_depth?: number;
  idempotency_retention_seconds?: number;
  retain_messages?: number;
  /** Only for `start`: when false the demo accounts and keys are not loaded. Default true. */
  extends_demo?: boolean;
}

export type MessageRoute = 'POST /messages' | 'POST /messages/batch';

export interface MessageRow {
  id: string;
  account: string;
  key_id: string;
  idempotency_key: string | null;
  request_id: string;
  route: MessageRoute;
  element_index: number;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  status: string;
  created_at: string;
}

export interface ErrorObject {
  type: string;
  code: string;
  message: string;
  param?: string;
}

export interface JobRowError {
  index: number;
  error: ErrorObject;
}

export interface JobView {
  object: 'job';
  id: string;
  type: 'contacts.bulk';
  status: 'queued' | 'processing' | 'completed';
  total: number;
  processed: number;
  failed: number;
  errors: JobRowError[];
  created_at: string;
  completed_at: string | null;
}

export interface JobLedgerRow extends JobView {
  account: string;
  key_id: string;
  idempotency_key: string | null;
  request_id: string;
}

export interface ContactView {
  object: 'contact';
  id: string;
  first_name: string | null;
  whatsapp: string | null;
  email: string | null;
  attributes: { [key: string]: unknown };
  created_at: string;
  updated_at: string;
}

export interface ContactLedgerRow extends ContactView {
  account: string;
  job_id: string;
  /** Every job row that wrote this contact, in order: `{ job_id, index, action }`. */
  writes: { job_id: string; index: number; action: 'created' | 'updated' }[];
}

/** The kinds of ledger rows, each read in its own pages. */
export interface LedgerRowKinds {
  messages: MessageRow;
  jobs: JobLedgerRow;
  contacts: ContactLedgerRow;
}
export type LedgerRows = keyof LedgerRowKinds;

export interface LedgerQuery<R extends LedgerRows = LedgerRows> {
  /** Which rows (default `messages`). */
  rows?: R;
  /** The `next_cursor` of the previous page; absent = from the oldest retained row. */
  after?: string | null;
  /** Rows per page, 1..1000 (default 100). */
  limit?: number;
}

/** Counts since start or the last reset; they include messages whose rows were evicted (`retain_messages`). */
export interface LedgerTotals {
  messages: number;
  messages_retained: number;
  messages_evicted: number;
  duplicates_detected: number;
  jobs: number;
  contacts: number;
  /** Number of API requests received (everything but /__sandbox and the inbox). */
  requests: number;
  /** Idempotency keys held: in progress, or committed and inside their retention (expired ones are swept). */
  idempotency_keys: number;
}

export interface LedgerPage<R extends LedgerRows = LedgerRows> {
  rows: R;
  data: LedgerRowKinds[R][];
  /** Pass as `after` for the next page; null when this page reached the newest row. */
  next_cursor: string | null;
  totals: LedgerTotals;
}

export interface DuplicateGroup {
  account: string;
  channel: string;
  to: string;
  subject: string | null;
  body: string;
  count: number;
  ids: string[];
}

export interface LedgerSummary {
  /** Messages ever created (since start or reset), evicted ones included. */
  messages: number;
  /** Messages still held in full (at most `retain_messages`). */
  messages_retained: number;
  /** Messages per idempotency key (only messages created under a key). Keys are `account/key`. */
  messages_by_idempotency_key: { [key: string]: number };
  /** Extra messages: for every fingerprint (account, channel, to, subject, body) ever seen, (count - 1). */
  duplicates_detected: number;
  /** The groups among retained messages (an evicted row is in no group, though it was counted above). */
  duplicates: DuplicateGroup[];
  jobs: number;
  contacts: number;
  requests: number;
}

export type FaultKind =
  | 'error_500_before_commit'
  | 'error_500_after_commit'
  | 'reset_before_commit'
  | 'reset_after_commit'
  | 'slow'
  | 'rate_limit_429';

export interface FaultInput {
  /** Method + path, e.g. `POST /v1/messages/batch`; `*` matches one path segment (or any method). */
  route: string;
  kind: FaultKind;
  /** Affect the next n matching requests (default 1; unlimited when `every` is given without `count`). */
  count?: number;
  /** Affect every nth matching request. */
  every?: number;
  /** Let the first n matching requests pass. */
  skip?: number;
  /** For `slow`: how long to hold the request (default 1000). */
  delay_ms?: number;
  /** For `rate_limit_429`: the Retry-After value in seconds (default: seconds to the window's end). */
  retry_after?: number;
}

export interface FaultRule extends FaultInput {
  id: string;
  /** Matching requests seen by this rule. */
  seen: number;
  /** Times this rule fired. */
  fired: number;
}

export interface SandboxControl {
  /** One page of side effects with the totals, as `GET /__sandbox/ledger?rows=&after=&limit=`. Throws LedgerQueryError. */
  ledger<R extends LedgerRows = 'messages'>(query?: LedgerQuery<R>): LedgerPage<R>;
  /** Counts, as `GET /__sandbox/ledger/summary`. */
  summary(): LedgerSummary;
  /** Adds a fault rule, as `POST /__sandbox/faults`. Throws on an invalid rule. */
  addFault(rule: FaultInput): FaultRule;
  /** Rules with their counters, as `GET /__sandbox/faults`. */
  faults(): FaultRule[];
  /** Removes every rule, as `DELETE /__sandbox/faults`. */
  clearFaults(): void;
  /** Back to the loaded config, no state, no faults, as `POST /__sandbox/reset`. */
  reset(): void;
  /** Merges a partial config, as `POST /__sandbox/config`. Returns the resulting config. Throws on invalid input. */
  configure(patch: SandboxConfigInput): SandboxConfig;
  /** The live config (credits reflect spending), as `GET /__sandbox/config`. */
  config(): SandboxConfig;
}
