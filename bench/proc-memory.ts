/**
 * Another process's resident memory, from Linux's /proc/<pid>/status. The peak over a stretch of time
 * is the larger of two readings: VmHWM (the kernel's high-water mark, reset at the start by writing 5 to
 * /proc/<pid>/clear_refs, which catches a spike between samples) and VmRSS sampled every `everyMs`
 * (which still works where clear_refs cannot be written).
 */
import { readFileSync, writeFileSync } from 'node:fs';

function statusKb(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(match[1]) * 1024;
}

export const rssBytes = (pid: number): number => statusKb(pid, 'VmRSS');

export interface PeakWatch {
  /** RSS when the watch started. */
  readonly startBytes: number;
  /** Stops sampling; resolves the peak RSS seen since the start. */
  stop(): number;
  /** Whether the kernel's high-water mark could be reset (else the peak is the sampled one alone). */
  readonly highWaterMarkReset: boolean;
}

/** Starts watching `pid`'s RSS for its peak. */
export function watchPeakRss(pid: number, everyMs = 20): PeakWatch {
  let highWaterMarkReset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    highWaterMarkReset = false;
  }
  const startBytes = rssBytes(pid);
  let sampled = startBytes;
  const timer = setInterval(() => {
    try {
      sampled = Math.max(sampled, rssBytes(pid));
    } catch {
      /* the process ended: stop() reports what was seen */
    }
  }, everyMs);
  return {
    startBytes,
    highWaterMarkReset,
    stop() {
      clearInterval(timer);
      try {
        sampled = Math.max(sampled, rssBytes(pid));
        if (highWaterMarkReset) sampled = Math.max(sampled, statusKb(pid, 'VmHWM'));
      } catch {
        /* gone */
      }
      return sampled;
    },
  };
}
