/**
 * Which channels take a subject (spec §2: "Used on `email`"; refused by name on the others). Defaults
 * from inputs apply only where they are taken, so a batch of mixed rows is not refused row by row.
 */
const SUBJECT_CHANNELS = new Set(['email']);

export function takesSubject(channel: string): boolean {
  return SUBJECT_CHANNELS.has(channel);
}
