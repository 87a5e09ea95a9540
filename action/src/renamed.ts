/**
 * Names renamed in 1.x so none reads like the workflow's own job (GitHub's `jobs.<id>`, `job.status`,
 * `needs.<job>.result`): an import job of the service is an "import". The old names still work until
 * v2: an old input or mode logs a warning naming the new one, and old outputs are written beside the new.
 */
import type { CoreLike } from './types.ts';

export const RENAMED_MODES: Readonly<Record<string, string>> = { job: 'import-status' };

/** Old output name → new output name: both are written. */
export const RENAMED_OUTPUTS: Readonly<Record<string, string>> = { 'job-ids': 'import-job-ids', 'job-status': 'import-status' };

export function deprecation(old: string, current: string): string {
  return `${old} is deprecated: use ${current} instead (same meaning). The old name still works until v2.`;
}

export function warnDeprecated(core: CoreLike, old: string, current: string): void {
  core.warning(deprecation(old, current));
}

/**
 * The `mode` input as given (`send` when empty), its current name, and the deprecation to show when it
 * is an old one: the summary's title and notes use these even when the step fails before its inputs are read.
 */
export function modeNames(core: CoreLike): { given: string; current: string; deprecated?: string } {
  const given = core.getInput('mode').trim() || 'send';
  const renamed = Object.hasOwn(RENAMED_MODES, given) ? RENAMED_MODES[given] : undefined;
  return renamed ? { given, current: renamed, deprecated: deprecation(`mode: ${given}`, `mode: ${renamed}`) } : { given, current: given };
}
