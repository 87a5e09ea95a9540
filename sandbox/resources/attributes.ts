/** GET /contact-attributes (§4): the account's configured attributes, no meta. */
import type { Ctx, Reply } from '../replies.ts';

export function listAttributes(ctx: Ctx): Reply {
  const data = (ctx.account.contact_attributes ?? []).map((a) => ({ object: 'contact_attribute', key: a.key, label: a.label ?? a.key, type: a.type ?? 'text' }));
  return { status: 200, body: { data } };
}
