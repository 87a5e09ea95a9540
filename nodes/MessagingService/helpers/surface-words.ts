/**
 * The node's words (src/surface-words.ts): its own fields, credential and operations, for a job still
 * running and for every error's remedy.
 */
import type { SurfaceWords } from '../../../src/index.ts';

/** Every wait of the node is bounded by a field named "Timeout (Seconds)"; remedies name its fields. */
export const NODE_WORDS: SurfaceWords = {
	timeoutSetting: '"Timeout (Seconds)"',
	readAgain: (ids) => `wait for ${ids.length === 1 ? 'it' : 'them'} later with Job → Wait (job id ${ids.join(', ')})`,
	apiKeySetting: 'the API Key of the Messaging Service API credential',
	baseUrlSetting: 'the Base URL of the Messaging Service API credential',
	rateLimitWaitSetting: 'the option "Max Rate-Limit Wait (Seconds)"',
};
