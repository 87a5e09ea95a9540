/** The shape of bench/results.json: one table row per figure, plus the series the charts draw. */
import { availableParallelism, cpus, totalmem } from 'node:os';

export interface Row {
  figure: string;
  ours: string;
  reference: string;
  /** ours ÷ reference. */
  ratio: number | null;
}

export type Point = [x: number, y: number];

export interface JobWaitPoint {
  durationS: number;
  polls: number;
  lagS: number;
  previousPolls: number;
  previousLagS: number;
}

/** What the table and the chart read of a bench:scale row (bench/scale.ts writes more). */
export type ScaleRow = Pick<import('./scale.ts').ScaleRow, 'processes' | 'throughput' | 'rate429' | 'lost' | 'dup'>;

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  node: string;
  platform: string;
  date: string;
}

export interface Results {
  machine: Machine;
  rows: Row[];
  charts: {
    calls: { items: number[]; ours: number[]; naive: number[] };
    throughput: { ceilingPerSecond: number; ours: Point[]; naive: Point[] };
    jobs: JobWaitPoint[];
    scale: ScaleRow[];
    /** The scale rows of the limiter before the scale work, when kept. */
    scaleBefore: ScaleRow[] | null;
  };
}

export function machine(): Machine {
  return {
    cpu: cpus()[0]?.model.trim() ?? 'unknown',
    cores: availableParallelism(),
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    date: new Date().toISOString(),
  };
}

export const ratio = (ours: number, reference: number): number => Math.round((ours / reference) * 1000) / 1000;
