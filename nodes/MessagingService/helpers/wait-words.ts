/** The node's words for a job still running (src/wait-ending.ts): its own fields and operations. */
import type { SurfaceWords } from '../../../src/index.ts';

export function nodeWaitWords(timeoutField: string): SurfaceWords {
	return {
		timeoutSetting: `"${timeoutField}"`,
		readAgain: (ids) => `wait for ${ids.length === 1 ? 'it' : 'them'} later with Job → Wait (job id ${ids.join(', ')})`,
	};
}
