/** GET /account (§4): the calling key's account, with its rate limit. */
import type { Ctx, Reply } from '../replies.ts';

export function getAccount(ctx: Ctx): Reply {
  const a = ctx.account;
  return {
    status: 200,
    body: { data: { object: 'account', id: a.id, name: a.name, status: a.status, plan: { name: a.plan.name, channels: [...a.plan.channels], running: a.plan.running }, credits: a.credits, rate_limit: a.rate_limit } },
  };
}
