/**
 * Which fields each channel takes, one rule for both adapters. Spec §2: `subject` is "Used on `email`"
 * and refused by name on the others. A subject that comes from the user's settings (the action's
 * `subject` input, the node's Subject field) applies only where it is taken, so a batch of mixed
 * channels is not refused row by row; a subject written in a row of data is sent as written.
 */
const SUBJECT_CHANNELS = new Set(['email']);

export function takesSubject(channel: string): boolean {
  return SUBJECT_CHANNELS.has(channel);
}

/** What both surfaces say when the subject setting is left out for some messages. */
export function subjectNotSentNotice(channels: Iterable<string>, count?: number): string {
  const names = [...new Set(channels)].sort().join(', ');
  const which = count === undefined ? `${names} messages` : `${count} ${names} message${count === 1 ? '' : 's'}`;
  return `The subject is not sent on ${which}: only email takes one.`;
}
