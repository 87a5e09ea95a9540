/** The action's words for a job still running (src/wait-ending.ts): its own inputs and modes. */
import type { SurfaceWords } from '../../src/index.ts';

export const ACTION_WAIT_WORDS: SurfaceWords = {
  timeoutSetting: 'wait-timeout',
  readAgain: (ids) => `read ${ids.length === 1 ? 'it' : 'them'} later in a step with mode: import-status and import-job-ids: ${JSON.stringify(ids.length === 1 ? ids[0] : ids)}`,
};
