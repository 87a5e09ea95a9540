/**
 * The action's words (src/surface-words.ts): its own inputs and modes, for a job still running and for
 * every error's remedy.
 */
import type { SurfaceWords } from '../../src/index.ts';

export const ACTION_WORDS: SurfaceWords = {
  timeoutSetting: 'wait-timeout',
  readAgain: (ids) => `read ${ids.length === 1 ? 'it' : 'them'} later in a step with mode: import-status and import-job-ids: ${JSON.stringify(ids.length === 1 ? ids[0] : ids)}`,
  apiKeySetting: 'the api-key input (or the MESSAGING_API_KEY environment variable)',
  baseUrlSetting: 'the base-url input (or the MESSAGING_BASE_URL environment variable)',
  rateLimitWaitSetting: 'max-rate-limit-wait',
};
