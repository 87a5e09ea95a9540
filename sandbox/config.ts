/** Building, merging and checking a SandboxConfig. */
import { readFileSync } from 'node:fs';
import { demoConfig } from './demo-config.ts';
import type { AccountConfig, KeyConfig, SandboxConfig, SandboxConfigInput } from './types.ts';
import { clone, isPlainObject } from './util.ts';

export class ConfigError extends Error {}

const ACCOUNT_STATUSES = ['active', 'suspended', 'trashed', 'deleting'];
const SENDER_STATES = ['online', 'offline', 'none'];
const SCALARS = ['window_seconds', 'job_rows_per_second', 'docs_url', 'max_body_bytes', 'max_json_depth', 'idempotency_retention_seconds', 'retain_messages'] as const;
/** Names that would reach an object's prototype if merged with Object.assign. */
const PROTOTYPE_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

/** Refuses a patch that names a prototype member anywhere (it could rewrite a config object's prototype). */
function refusePrototypeNames(v: unknown, path: string): void {
  if (typeof v !== 'object' || v === null) return;
  for (const [k, inner] of Object.entries(v)) {
    if (PROTOTYPE_NAMES.has(k)) throw new ConfigError(`${path}${k}: a prototype name is not a config field`);
    refusePrototypeNames(inner, `${path}${k}.`);
  }
}

export function loadConfigInput(config: SandboxConfigInput | string | undefined): SandboxConfigInput {
  if (config === undefined) return {};
  if (typeof config === 'string') {
    let text: string;
    try {
      text = readFileSync(config, 'utf8');
    } catch (e) {
      throw new ConfigError(`cannot read config file ${config}: ${(e as Error).message}`);
    }
    try {
      return JSON.parse(text) as SandboxConfigInput;
    } catch (e) {
      throw new ConfigError(`config file ${config} is not valid JSON: ${(e as Error).message}`);
    }
  }
  return config;
}

/** The config a sandbox starts with: the demo config (unless extends_demo is false) with the input merged over it. */
export function initialConfig(input: SandboxConfigInput): SandboxConfig {
  const base: SandboxConfig = input.extends_demo === false ? { ...clone(demoConfig), accounts: [], keys: [] } : clone(demoConfig);
  return mergeConfig(base, input);
}

/** Returns a new config: `patch` merged over `base` (accounts by id, keys by key, scalars replaced). Throws ConfigError. */
export function mergeConfig(base: SandboxConfig, patch: SandboxConfigInput): SandboxConfig {
  if (!isPlainObject(patch)) throw new ConfigError('config must be a JSON object');
  refusePrototypeNames(patch, '');
  const allowed = new Set<string>(['accounts', 'keys', 'extends_demo', ...SCALARS]);
  for (const k of Object.keys(patch)) if (!allowed.has(k)) throw new ConfigError(`unknown config field "${k}"`);
  const out = clone(base);
  for (const k of SCALARS) {
    if (patch[k] !== undefined) (out as unknown as Record<string, unknown>)[k] = patch[k];
  }
  if (patch.accounts !== undefined) {
    if (!Array.isArray(patch.accounts)) throw new ConfigError('accounts must be an array');
    for (const p of patch.accounts) {
      if (!isPlainObject(p) || typeof p.id !== 'string') throw new ConfigError('each account needs a string id');
      const existing = out.accounts.find((a) => a.id === p.id);
      if (existing) {
        const { plan, senders, ...rest } = p;
        Object.assign(existing, clone(rest));
        if (plan !== undefined) existing.plan = { ...existing.plan, ...clone(plan) };
        if (senders !== undefined) existing.senders = { ...existing.senders, ...clone(senders) };
      } else {
        const fresh: AccountConfig = {
          name: p.id,
          status: 'active',
          credits: 0,
          rate_limit: 60,
          contact_attributes: [],
          ...clone(p),
          plan: { name: 'custom', channels: ['whatsapp', 'email'], running: true, ...clone(p.plan ?? {}) },
          senders: { whatsapp: 'online', email: 'online', ...clone(p.senders ?? {}) },
        } as unknown as AccountConfig;
        out.accounts.push(fresh);
      }
    }
  }
  if (patch.keys !== undefined) {
    if (!Array.isArray(patch.keys)) throw new ConfigError('keys must be an array');
    for (const p of patch.keys) {
      if (!isPlainObject(p) || typeof p.key !== 'string') throw new ConfigError('each key needs a string key');
      const existing = out.keys.find((k) => k.key === p.key);
      if (existing) Object.assign(existing, clone(p));
      else out.keys.push({ scopes: [], label: p.key, ...clone(p) } as unknown as KeyConfig);
    }
  }
  validateConfig(out);
  return out;
}

function isWhole(n: unknown, min: number): boolean {
  return typeof n === 'number' && Number.isInteger(n) && n >= min;
}

export function validateConfig(c: SandboxConfig): void {
  if (!isWhole(c.window_seconds, 1)) throw new ConfigError('window_seconds must be a whole number >= 1');
  if (typeof c.job_rows_per_second !== 'number' || !(c.job_rows_per_second >= 0) || !Number.isFinite(c.job_rows_per_second))
    throw new ConfigError('job_rows_per_second must be a finite number >= 0');
  if (typeof c.docs_url !== 'string') throw new ConfigError('docs_url must be a string');
  if (!isWhole(c.max_body_bytes, 1)) throw new ConfigError('max_body_bytes must be a whole number >= 1');
  if (!isWhole(c.max_json_depth, 1)) throw new ConfigError('max_json_depth must be a whole number >= 1');
  if (!isWhole(c.idempotency_retention_seconds, 0)) throw new ConfigError('idempotency_retention_seconds must be a whole number >= 0');
  if (!isWhole(c.retain_messages, 0)) throw new ConfigError('retain_messages must be a whole number >= 0');
  const ids = new Set<string>();
  for (const a of c.accounts) {
    if (ids.has(a.id)) throw new ConfigError(`duplicate account ${a.id}`);
    ids.add(a.id);
    if (typeof a.name !== 'string') throw new ConfigError(`account ${a.id}: name must be a string`);
    if (!ACCOUNT_STATUSES.includes(a.status)) throw new ConfigError(`account ${a.id}: status must be one of ${ACCOUNT_STATUSES.join(', ')}`);
    if (!isPlainObject(a.plan) || typeof a.plan.name !== 'string' || !Array.isArray(a.plan.channels) || typeof a.plan.running !== 'boolean')
      throw new ConfigError(`account ${a.id}: plan needs name, channels[] and running`);
    if (typeof a.credits !== 'number' || !Number.isFinite(a.credits) || a.credits < 0) throw new ConfigError(`account ${a.id}: credits must be a number >= 0`);
    if (!isWhole(a.rate_limit, 0)) throw new ConfigError(`account ${a.id}: rate_limit must be a whole number >= 0`);
    if (!isPlainObject(a.senders)) throw new ConfigError(`account ${a.id}: senders must be an object`);
    for (const [ch, s] of Object.entries(a.senders))
      if (!SENDER_STATES.includes(s)) throw new ConfigError(`account ${a.id}: sender ${ch} must be online, offline or none`);
    if (a.contact_attributes !== undefined) {
      if (!Array.isArray(a.contact_attributes)) throw new ConfigError(`account ${a.id}: contact_attributes must be an array`);
      for (const at of a.contact_attributes) {
        if (!isPlainObject(at) || typeof at.key !== 'string') throw new ConfigError(`account ${a.id}: each contact attribute needs a key`);
        if (['first_name', 'whatsapp', 'email'].includes(at.key)) throw new ConfigError(`account ${a.id}: attribute key ${at.key} is reserved`);
        // An attribute is assigned by its key: `__proto__` would hit the prototype setter and vanish.
        if (PROTOTYPE_NAMES.has(at.key)) throw new ConfigError(`account ${a.id}: attribute key ${at.key} is a prototype name`);
      }
    }
  }
  const keys = new Set<string>();
  for (const k of c.keys) {
    if (keys.has(k.key)) throw new ConfigError(`duplicate key ${k.key}`);
    keys.add(k.key);
    if (k.key.length === 0) throw new ConfigError('a key must not be empty');
    if (!ids.has(k.account)) throw new ConfigError(`key ${k.key}: unknown account ${k.account}`);
    if (!Array.isArray(k.scopes) || !k.scopes.every((s) => typeof s === 'string')) throw new ConfigError(`key ${k.key}: scopes must be strings`);
    if (k.expires_at !== undefined && Number.isNaN(Date.parse(k.expires_at))) throw new ConfigError(`key ${k.key}: expires_at must be an ISO date`);
  }
}
