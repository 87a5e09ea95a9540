/**
 * The action: everything takes an injected `core` and run context (see types.ts), so tests need no
 * module mocking. `index.ts` passes the real @actions/core and the runner's context.
 */
import { ApiError, describeChunkEvent, describeClientEvent, describeError, formatSeconds, MessagingClient } from '../../src/index.ts';
import type { ChunkEvent, ClientEvent, Runtime } from '../../src/index.ts';
import { runInfo, templateScope } from './context.ts';
import { InputError, readApiKey, readInputs } from './inputs.ts';
import type { Mode } from './inputs.ts';
import { Log } from './log.ts';
import { batchMode } from './modes/batch.ts';
import { importStatusMode } from './modes/import-status.ts';
import { sendMode } from './modes/send.ts';
import type { ModeContext } from './modes/shared.ts';
import { syncContactsMode } from './modes/sync-contacts.ts';
import { proxyForLog, proxySecrets } from './proxy.ts';
import { readRoots } from './read-paths.ts';
import { modeNames } from './renamed.ts';
import type { ReadRoots } from './read-paths.ts';
import { newReport, writeOutputs, writeResultsFile } from './report.ts';
import { ResultsFile } from './results-file.ts';
import { writeSummary } from './summary.ts';
import { ACTION_WORDS } from './surface-words.ts';
import type { CoreLike, ContextLike } from './types.ts';

export const USER_AGENT = 'messaging-service-github-action/1';

const MODES: Record<Mode, (ctx: ModeContext) => Promise<void>> = { send: sendMode, batch: batchMode, 'sync-contacts': syncContactsMode, 'import-status': importStatusMode };

export interface RunDependencies {
  core: CoreLike;
  context: ContextLike;
  /** Default: process.env. */
  env?: NodeJS.ProcessEnv;
  /**
   * HTTP, timers and clock for the shared client, or a maker given the `proxy` input (validated; '' when
   * unset): index.ts passes the proxy-aware undici runtime.
   */
  runtime: Runtime | ((proxy: string) => Runtime);
}

/** One progress line per chunk call, so long runs show life in the log. */
function chunkLogger(log: Log) {
  return (what: string) =>
    (event: ChunkEvent): void =>
      log.info(describeChunkEvent(event, what));
}

/** Under load the client may report a rate wait that is already over (0.0 s): not a wait anyone sees. */
const SHORTEST_WAIT_SHOWN_MS = 50;

function eventLogger(log: Log, stats: { retries: number; waits: number; waitedMs: number }) {
  return (event: ClientEvent): void => {
    if (event.type === 'retry') stats.retries += 1;
    else if (event.ms < SHORTEST_WAIT_SHOWN_MS) return;
    else {
      stats.waits += 1;
      stats.waitedMs += event.ms;
    }
    log.info(describeClientEvent(event));
  };
}

export async function run(deps: RunDependencies): Promise<void> {
  const { core, context } = deps;
  const env = deps.env ?? process.env;
  // First of all: mask the key, before anything could print it.
  const apiKey = readApiKey(core, env);
  const log = new Log(core);
  if (apiKey) log.addSecret(apiKey);
  for (const secret of proxySecrets(core.getInput('proxy'))) log.addSecret(secret);
  // The mode's current name from the start, so a step that fails early is titled as it would be later.
  const modeName = modeNames(core);
  let report = newReport(modeName.current, false);
  const stats = { retries: 0, waits: 0, waitedMs: 0 };
  let failOnError = true; // until the inputs are read; a step that can't read them fails anyway
  try {
    const settings = readInputs(core, env, apiKey);
    failOnError = settings.failOnError;
    if (settings.proxy && !settings.dryRun) log.info(`Requests to the service go through the proxy ${proxyForLog(settings.proxy)} (the proxy input, over HTTPS_PROXY / HTTP_PROXY; hosts in NO_PROXY go direct).`);
    report = newReport(settings.mode, settings.dryRun);
    report.resultsFile = ResultsFile.open(env, (text) => log.clean(text));
    let client: MessagingClient | undefined;
    let roots: ReadRoots | undefined;
    const workspace = env.GITHUB_WORKSPACE || process.cwd();
    const ctx: ModeContext = {
      settings,
      info: runInfo(context, env),
      scope: templateScope(context, env, settings.envVars),
      workspace,
      readRoots: () => (roots ??= readRoots(workspace, env.RUNNER_TEMP, settings.readDirs)),
      env,
      report,
      log,
      onChunk: chunkLogger(log),
      client: () =>
        (client ??= new MessagingClient({ baseUrl: settings.baseUrl, apiKey: settings.apiKey, runtime: typeof deps.runtime === 'function' ? deps.runtime(settings.proxy) : deps.runtime, maxWaitMs: settings.maxRateLimitWaitMs, userAgent: USER_AGENT, onEvent: eventLogger(log, stats) })),
    };
    await MODES[settings.mode](ctx);
  } catch (error) {
    if (error instanceof InputError) report.fatal = log.mask(error.message);
    else if (error instanceof ApiError) report.fatal = log.mask(`${error.code === 'invalid_input' ? 'Invalid input: ' : ''}${describeError(error, { words: ACTION_WORDS })}`);
    else report.fatal = `Unexpected error: ${log.mask(error instanceof Error ? (error.stack ?? error.message) : String(error))}`;
  }
  if (modeName.deprecated) report.notes.unshift(modeName.deprecated);
  if (stats.retries) report.notes.push(`${stats.retries} retr${stats.retries === 1 ? 'y' : 'ies'} by the client (see the log).`);
  if (stats.waits) report.notes.push(`Waited ${stats.waits} time(s) for the rate window, ${formatSeconds(stats.waitedMs)} in all.`);
  report.notes.push(...log.overflowNotes());

  // Outputs and summary before the step's fate, so continue-on-error users can branch on them.
  const clean = (text: string) => log.clean(text);
  writeOutputs(core, report, writeResultsFile(report, env, clean), clean);
  await writeSummary(core, report, clean);
  if (report.fatal) core.setFailed(log.clean(report.fatal));
  else if (report.failures.length) {
    const message = report.counts.unknown ? `${report.counts.unknown} unknown: re-run this job to send them again under the same keys (each result in results-file names its key; the first is ${report.idempotencyKey}). ${report.failures.join(' ')}` : report.failures.join(' ');
    if (failOnError) core.setFailed(log.clean(message));
    else core.warning(log.clean(`${message} (fail-on-error is false: the step succeeds.)`));
  } else {
    const c = report.counts;
    log.info(report.dryRun ? 'Dry run complete: nothing was sent.' : report.mode === 'send' || report.mode === 'batch' ? `Done: ${c.sent} sent.` : `Done: ${c.imported} imported.`);
  }
}
