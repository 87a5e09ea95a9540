import type { ApiError } from './errors.ts';
import { describeResult } from './outcome-wording.ts';
import type { ItemResult, ItemStatus } from './types.ts';

/** An error as plain fields, for an n8n item's `details` or an action's results output. */
export interface ErrorRecord {
  code: string;
  type: string;
  message: string;
  param?: string;
  docUrl?: string;
  /** HTTP status; 0 when no answer came back or the client refused the input. */
  status: number;
  requestId?: string;
  remedy: string;
  /** The write may have been committed: send again with the same key. */
  outcomeUnknown: boolean;
}

/** One input's result as plain fields, the same for both adapters; each adds its host's own fields. */
export interface ResultRecord {
  index: number;
  status: ItemStatus;
  /** The service answered from its idempotency store: an earlier attempt had already sent it. */
  replayed: boolean;
  id?: string;
  chunk: number;
  /** The key that settles this input: sending again with it never sends twice. */
  idempotencyKey: string;
  requestId?: string;
  /** `failed` only: the whole call was refused, not this element. */
  wholeCall?: boolean;
  error?: ErrorRecord;
  /** One line for a person: what became of it and what to do. */
  description: string;
}

/** Without empty fields, so hosts that serialise it show only what is known. */
export function errorRecord(error: ApiError): ErrorRecord {
  const record: ErrorRecord = {
    code: error.code,
    type: error.type,
    message: error.message,
    param: error.param,
    docUrl: error.docUrl,
    status: error.status,
    requestId: error.requestId,
    remedy: error.remedy,
    outcomeUnknown: error.outcomeUnknown,
  };
  if (record.param === undefined) delete record.param;
  if (record.docUrl === undefined) delete record.docUrl;
  if (record.requestId === undefined) delete record.requestId;
  return record;
}

export function resultRecord(result: ItemResult): ResultRecord {
  const record: ResultRecord = {
    index: result.index,
    status: result.status,
    replayed: result.call.replayed,
    chunk: result.call.chunk,
    idempotencyKey: result.call.idempotencyKey,
    description: describeResult(result),
  };
  if (result.call.requestId !== undefined) record.requestId = result.call.requestId;
  if (result.status === 'sent') record.id = result.id;
  else record.error = errorRecord(result.error);
  if (result.status === 'failed') record.wholeCall = result.wholeCall;
  return record;
}
