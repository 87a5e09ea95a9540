/** The default configuration: one healthy account plus one account or key per documented failure. */
import type { AccountConfig, SandboxConfig } from './types.ts';

const BOTH = ['whatsapp', 'email'];
/** About 30 MB of message rows (docs/sandbox.md, "Memory"): a long `npm start` session stays flat. */
export const DEFAULT_RETAIN_MESSAGES = 50_000;
const ONLINE = { whatsapp: 'online', email: 'online' } as const;

function account(id: string, name: string, extra: Partial<AccountConfig> = {}): AccountConfig {
  return {
    id,
    name,
    status: 'active',
    plan: { name: 'growth', channels: [...BOTH], running: true },
    credits: 10000,
    rate_limit: 600,
    senders: { ...ONLINE },
    contact_attributes: [
      { key: 'city', label: 'City', type: 'text' },
      { key: 'vip', label: 'VIP', type: 'boolean' },
    ],
    ...extra,
  };
}

export const demoConfig: SandboxConfig = {
  accounts: [
    account('acc_demo', 'Demo Shop'),
    account('acc_other', 'Other Company'),
    account('acc_plan_expired', 'Lapsed Plan Ltd', { plan: { name: 'growth', channels: [...BOTH], running: false } }),
    account('acc_suspended', 'Suspended Inc', { status: 'suspended' }),
    account('acc_trashed', 'Trashed Inc', { status: 'trashed' }),
    account('acc_email_only', 'Email Only Co', { plan: { name: 'email-starter', channels: ['email'], running: true } }),
    account('acc_no_credits', 'Broke Co', { credits: 0 }),
    account('acc_no_sender', 'No Sender Co', { senders: { whatsapp: 'offline', email: 'none' } }),
    account('acc_rate_limited', 'Low Ceiling Co', { rate_limit: 5 }),
  ],
  keys: [
    { key: 'sk_test_demo_ok', account: 'acc_demo', scopes: ['messages:write', 'contacts:write'], label: 'everything works' },
    { key: 'sk_test_demo_no_messages_write', account: 'acc_demo', scopes: ['contacts:write'], label: 'lacks messages:write → 403 insufficient_scope on sending' },
    { key: 'sk_test_demo_no_contacts_write', account: 'acc_demo', scopes: ['messages:write'], label: 'lacks contacts:write → 403 insufficient_scope on bulk import' },
    { key: 'sk_test_demo_expired', account: 'acc_demo', scopes: ['messages:write', 'contacts:write'], expires_at: '2020-01-01T00:00:00.000Z', label: 'expired → 401 api_key_expired' },
    { key: 'sk_test_demo_revoked', account: 'acc_demo', scopes: ['messages:write', 'contacts:write'], revoked: true, label: 'revoked → 401 api_key_revoked' },
    { key: 'sk_test_demo_plan_expired', account: 'acc_plan_expired', scopes: ['messages:write', 'contacts:write'], label: 'plan not running → 403 subscription_expired' },
    { key: 'sk_test_demo_suspended', account: 'acc_suspended', scopes: ['messages:write', 'contacts:write'], label: 'account suspended → 403 account_suspended' },
    { key: 'sk_test_demo_trashed', account: 'acc_trashed', scopes: ['messages:write', 'contacts:write'], label: 'account in the trash → 403 account_suspended' },
    { key: 'sk_test_demo_no_whatsapp', account: 'acc_email_only', scopes: ['messages:write', 'contacts:write'], label: 'plan without whatsapp → channel_not_in_plan' },
    { key: 'sk_test_demo_no_credits', account: 'acc_no_credits', scopes: ['messages:write', 'contacts:write'], label: '0 credits → 402 insufficient_credits' },
    { key: 'sk_test_demo_no_sender', account: 'acc_no_sender', scopes: ['messages:write', 'contacts:write'], label: 'no sender online → 422 no_sender_available' },
    { key: 'sk_test_demo_rate_limited', account: 'acc_rate_limited', scopes: ['messages:write', 'contacts:write'], label: '5 requests per window → 429 rate_limit_exceeded' },
    { key: 'sk_test_demo_other_account', account: 'acc_other', scopes: ['messages:write', 'contacts:write'], label: 'a second account → its ids are 404 to acc_demo and back' },
  ],
  window_seconds: 60,
  job_rows_per_second: 200,
  docs_url: 'https://docs.example.com/errors',
  max_body_bytes: 5 * 1024 * 1024,
  max_json_depth: 100,
  idempotency_retention_seconds: 86400,
  retain_messages: DEFAULT_RETAIN_MESSAGES,
};

/** The demo keys, for the CLI banner and the README. */
export const demoKeys: { key: string; account: string; demonstrates: string }[] = demoConfig.keys.map((k) => ({
  key: k.key,
  account: k.account,
  demonstrates: k.label,
}));
