/**
 * The action: everything takes an injected `core` and run context (see types.ts), so tests need no
 * module mocking. `index.ts` passes the real @actions/core and the runner's context.
 */
import { ApiError, describeChunkEvent, describeClientEvent, describeError, formatSeconds, MessagingClient } from '../../src/index.ts';
import type { ChunkEvent, ClientEvent, Runtime } from '../../src/index.ts';
import { runInfo, templateScope } from './context.ts';
import { InputError, readApiKey, readInputs } from './inputs.ts';
import { maskText } from './mask.ts';
import { batchMode, jobMode, sendMode, syncContactsMode } from './modes.ts';
import type { ModeContext } from './modes.ts';
import { newReport, writeOutputs, writeSummary } from './report.ts';
import type { CoreLike, ContextLike } from './types.ts';

export const USER_AGENT = 'relay-messaging-github-action/0.1.0';

export interface RunDependencies {
  core: CoreLike;
  context: ContextLike;
  /** Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /** HTTP, timers and clock for the shared client: index.ts passes nodeRuntime(fetchTransport()); tests may pass the undici one. */
  runtime: Runtime;
}

/** One progress line per chunk call, so long runs show life in the log. */
function chunkLogger(core: CoreLike) {
  return (what: string) =>
    (event: ChunkEvent): void => {
      core.info(describeChunkEvent(event, what));
    };
}

export async function run(deps: RunDependencies): Promise<void> {
  const { core, context } = deps;
  const env = deps.env ?? process.env;
  // First of all: mask the key, before anything could print it.
  const apiKey = readApiKey(core, env);
  if (apiKey) core.setSecret(apiKey);

  const modeName = core.getInput('mode').trim() || 'send';
  let report = newReport(modeName, false);
  const stats = { retries: 0, retryCodes: new Map<string, number>(), waits: 0, waitedMs: 0 };
  const known = new Set<string>();
  try {
    const settings = readInputs(core, env, apiKey);
    report = newReport(settings.mode, settings.dryRun);
    let client: MessagingClient | undefined;
    const onEvent = (event: ClientEvent): void => {
      if (event.type === 'retry') {
        stats.retries += 1;
        stats.retryCodes.set(event.code, (stats.retryCodes.get(event.code) ?? 0) + 1);
      } else {
        stats.waits += 1;
        stats.waitedMs += event.ms;
      }
      core.info(describeClientEvent(event));
    };
    const ctx: ModeContext = {
      core,
      settings,
      info: runInfo(context, env),
      scope: templateScope(context, env),
      workspace: env.GITHUB_WORKSPACE || process.cwd(),
      report,
      onChunk: chunkLogger(core),
      known,
      client: () =>
        (client ??= new MessagingClient({
          baseUrl: settings.baseUrl,
          apiKey: settings.apiKey,
          runtime: deps.runtime,
          maxWaitMs: settings.maxRateLimitWaitMs,
          userAgent: USER_AGENT,
          onEvent,
        })),
    };
    if (settings.mode === 'send') await sendMode(ctx);
    else if (settings.mode === 'batch') await batchMode(ctx);
    else if (settings.mode === 'sync-contacts') await syncContactsMode(ctx);
    else await jobMode(ctx);
  } catch (error) {
    if (error instanceof InputError) report.fatal = maskText(error.message, known);
    else if (error instanceof ApiError) report.fatal = maskText(error.status === 0 && error.code === 'invalid_input' ? `Invalid input: ${describeError(error)}` : describeError(error), known);
    else report.fatal = `Unexpected error: ${maskText(error instanceof Error ? (error.stack ?? error.message) : String(error), known)}`;
  }
  if (stats.retries) report.notes.push(`${stats.retries} retr${stats.retries === 1 ? 'y' : 'ies'} by the client (${[...stats.retryCodes].map(([c, n]) => `${c} ×${n}`).join(', ')}).`);
  if (stats.waits) report.notes.push(`Waited ${stats.waits} time(s) for the rate window, ${formatSeconds(stats.waitedMs)} in all.`);

  // Outputs and summary before the step's fate, so continue-on-error users can branch on them.
  writeOutputs(core, report);
  await writeSummary(core, report);
  const failOnError = safeFailOnError(core);
  if (report.fatal) {
    core.setFailed(report.fatal);
  } else if (report.failures.length) {
    if (failOnError) core.setFailed(report.failures.join(' '));
    else for (const f of report.failures) core.warning(`${f} (fail-on-error is false: the step succeeds.)`);
  } else {
    const done = report.dryRun ? 'Dry run complete: nothing was sent' : `Done: ${report.sent} ${report.mode === 'send' || report.mode === 'batch' ? 'sent' : 'imported'}`;
    core.info(`${done}.`);
  }
}

/** fail-on-error, read again here because an invalid input may have stopped readInputs early. */
function safeFailOnError(core: CoreLike): boolean {
  return !['false', 'False', 'FALSE'].includes(core.getInput('fail-on-error'));
}
