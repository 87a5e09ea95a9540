/**
 * How a surface names the settings a user can change: every remedy and "still running" sentence of both
 * adapters is built from these (errors.ts, error-wording.ts, wait-ending.ts), so neither shows the
 * client's internal names (`jobs.wait`, `timeoutMs`, `maxWaitMs`) to its users, nor the other surface's.
 */
export interface SurfaceWords {
  /** The wait's timeout as the surface names it, e.g. `"Timeout (Seconds)"` or `wait-timeout`. */
  timeoutSetting: string;
  /** How to read these jobs again later on this surface. */
  readAgain(jobIds: readonly string[]): string;
  /** Where the API key is set, e.g. `the credential's API Key` or `the api-key input`. */
  apiKeySetting: string;
  /** Where the base URL is set. */
  baseUrlSetting: string;
  /** The bound on waiting for the rate window, e.g. `max-rate-limit-wait`. */
  rateLimitWaitSetting: string;
}

/** For the client used as a library: its own option and method names. */
export const CLIENT_WORDS: SurfaceWords = {
  timeoutSetting: 'timeoutMs',
  readAgain: (ids) => `call jobs.wait with ${ids.length === 1 ? 'its id' : 'their ids'}`,
  apiKeySetting: 'the apiKey option',
  baseUrlSetting: 'the baseUrl option',
  rateLimitWaitSetting: 'maxWaitMs',
};
