/** Hand-written SVG line charts for docs/benchmarks.md: axes, ticks, series and a legend, nothing more. */
import type { Point } from './results.ts';

export interface Series {
  name: string;
  points: Point[];
  color: string;
  dashed?: boolean;
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  series: Series[];
  xLog?: boolean;
  yLog?: boolean;
  /** Lowest y shown on a linear axis (default 0). */
  yMin?: number;
}

const W = 640;
/** The plot's height; the legend goes below it, outside the frame, so it never covers a point. */
const PLOT_H = 360;
const LEGEND_ROW = 16;
const PAD = { left: 64, right: 16, top: 36, bottom: 48 };

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const num = (n: number) => String(Math.round(n * 10) / 10);
const label = (n: number) => (Math.abs(n) >= 10_000 ? `${n / 1000}k` : String(Math.round(n * 1000) / 1000));

/** Ticks at 1, 2, 5 × 10^k covering [lo, hi]. */
function linearTicks(lo: number, hi: number): number[] {
  const span = hi - lo || 1;
  const raw = span / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) ticks.push(Math.round(t / step) * step);
  return ticks;
}

function logTicks(lo: number, hi: number): number[] {
  const ticks: number[] = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++) {
    for (const m of [1, 2, 5]) {
      const t = m * 10 ** e;
      if (t >= lo * 0.999 && t <= hi * 1.001) ticks.push(t);
    }
  }
  return ticks;
}

/** The 1, 2, 5 × 10^k at or below v (down) or at or above it (up): a log axis ends near its data, not a decade later. */
function logBound(v: number, up: boolean): number {
  const e = Math.floor(Math.log10(v));
  const steps = [1, 2, 5, 10].map((m) => m * 10 ** e);
  return up ? steps.find((t) => t >= v * 0.999)! : [...steps].reverse().find((t) => t <= v * 1.001)!;
}

interface Axis {
  at: (v: number) => number;
  ticks: number[];
}

function axis(values: number[], log: boolean, from: number, to: number, floor?: number): Axis {
  if (log) {
    const lo = logBound(Math.min(...values), false);
    const hi = logBound(Math.max(...values), true);
    return { at: (v) => from + ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo) || 1)) * (to - from), ticks: logTicks(lo, hi) };
  }
  const lo = floor ?? Math.min(0, ...values);
  const max = Math.max(...values);
  const ticks = linearTicks(lo, max);
  // The axis ends on a tick at or above the largest value, so no line touches or leaves the frame's top.
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : 1;
  while (ticks[ticks.length - 1]! < max) ticks.push(ticks[ticks.length - 1]! + step);
  const hi = ticks[ticks.length - 1]!;
  return { at: (v) => from + ((v - lo) / (hi - lo || 1)) * (to - from), ticks };
}

export function lineChart(spec: ChartSpec): string {
  const all = spec.series.flatMap((s) => s.points);
  const x = axis(all.map((p) => p[0]), Boolean(spec.xLog), PAD.left, W - PAD.right);
  const y = axis(all.map((p) => p[1]), Boolean(spec.yLog), PLOT_H - PAD.bottom, PAD.top, spec.yMin);
  const H = PLOT_H + spec.series.length * LEGEND_ROW + 8;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="sans-serif" font-size="11">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${W / 2}" y="18" text-anchor="middle" font-size="13" font-weight="bold">${escape(spec.title)}</text>`,
  ];
  for (const t of x.ticks) {
    const px = num(x.at(t));
    out.push(`<line x1="${px}" y1="${PAD.top}" x2="${px}" y2="${PLOT_H - PAD.bottom}" stroke="#eee"/>`, `<text x="${px}" y="${PLOT_H - PAD.bottom + 14}" text-anchor="middle">${label(t)}</text>`);
  }
  for (const t of y.ticks) {
    const py = num(y.at(t));
    out.push(`<line x1="${PAD.left}" y1="${py}" x2="${W - PAD.right}" y2="${py}" stroke="#eee"/>`, `<text x="${PAD.left - 6}" y="${py}" text-anchor="end" dominant-baseline="middle">${label(t)}</text>`);
  }
  out.push(
    `<line x1="${PAD.left}" y1="${PLOT_H - PAD.bottom}" x2="${W - PAD.right}" y2="${PLOT_H - PAD.bottom}" stroke="#333"/>`,
    `<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PLOT_H - PAD.bottom}" stroke="#333"/>`,
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${PLOT_H - 10}" text-anchor="middle">${escape(spec.xLabel)}</text>`,
    `<text transform="translate(14 ${(PAD.top + PLOT_H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle">${escape(spec.yLabel)}</text>`,
  );
  const dash = (s: Series) => (s.dashed ? ' stroke-dasharray="6 4"' : '');
  for (const s of spec.series) {
    const path = s.points.map((p, j) => `${j ? 'L' : 'M'}${num(x.at(p[0]))} ${num(y.at(p[1]))}`).join(' ');
    out.push(`<path d="${path}" fill="none" stroke="${s.color}" stroke-width="2"${dash(s)}/>`);
    if (!s.dashed && s.points.length <= 20) for (const p of s.points) out.push(`<circle cx="${num(x.at(p[0]))}" cy="${num(y.at(p[1]))}" r="3" fill="${s.color}"/>`);
  }
  spec.series.forEach((s, i) => {
    const ly = PLOT_H + 4 + i * LEGEND_ROW;
    out.push(
      `<line x1="${PAD.left}" y1="${ly}" x2="${PAD.left + 24}" y2="${ly}" stroke="${s.color}" stroke-width="2"${dash(s)}/>`,
      `<text x="${PAD.left + 30}" y="${ly}" dominant-baseline="middle">${escape(s.name)}</text>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
