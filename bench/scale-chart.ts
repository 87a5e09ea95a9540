/**
 * The scale chart: throughput (share of the ceiling) and 429s (share of requests) against the number
 * of processes, as a hand-written SVG. A baseline run, when given, is drawn dashed beside the current.
 */
import type { ScaleRow } from './scale.ts';

const WIDTH = 560;
const HEIGHT = 320;
const PAD = { left: 56, right: 150, top: 36, bottom: 48 };

interface Series {
  label: string;
  color: string;
  dashed: boolean;
  points: { n: number; value: number }[];
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}

export function scaleChartSvg(current: ScaleRow[], baseline?: ScaleRow[]): string {
  const ns = [...new Set(current.map((r) => r.processes))].sort((a, b) => a - b);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  // N on a log2 axis: 1, 2, 4, 8 evenly spaced.
  const logs = ns.map((n) => Math.log2(n));
  const lo = Math.min(...logs);
  const span = Math.max(...logs) - lo || 1;
  const x = (n: number) => PAD.left + ((Math.log2(n) - lo) / span) * plotW;
  const y = (ratio: number) => PAD.top + (1 - Math.min(1.05, Math.max(0, ratio)) / 1.05) * plotH;

  const series: Series[] = [];
  const add = (rows: ScaleRow[], tag: string, dashed: boolean) => {
    series.push({ label: `throughput${tag}`, color: '#1f6feb', dashed, points: rows.map((r) => ({ n: r.processes, value: r.throughput })) });
    series.push({ label: `429s${tag}`, color: '#d1242f', dashed, points: rows.map((r) => ({ n: r.processes, value: r.rate429 })) });
  };
  if (baseline?.length) add(baseline, ' (before)', true);
  add(current, baseline?.length ? ' (after)' : '', false);

  const parts: string[] = [];
  parts.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`);
  parts.push(`<rect width="${WIDTH}" height="${HEIGHT}" fill="#ffffff"/>`);
  parts.push(`<text x="${PAD.left}" y="20" font-size="14" font-weight="bold">Processes on one key: throughput and 429s</text>`);
  for (const tick of [0, 0.25, 0.5, 0.75, 1]) {
    parts.push(`<line x1="${PAD.left}" x2="${PAD.left + plotW}" y1="${y(tick).toFixed(1)}" y2="${y(tick).toFixed(1)}" stroke="#d0d7de" stroke-width="1"/>`);
    parts.push(`<text x="${PAD.left - 8}" y="${(y(tick) + 4).toFixed(1)}" text-anchor="end">${tick.toFixed(2)}</text>`);
  }
  for (const n of ns) parts.push(`<text x="${x(n)}" y="${PAD.top + plotH + 18}" text-anchor="middle">${n}</text>`);
  parts.push(`<text x="${PAD.left + plotW / 2}" y="${HEIGHT - 10}" text-anchor="middle">processes (N)</text>`);
  parts.push(`<text transform="translate(14 ${PAD.top + plotH / 2}) rotate(-90)" text-anchor="middle">ratio</text>`);
  series.forEach((s, i) => {
    const dash = s.dashed ? ' stroke-dasharray="5 4"' : '';
    const points = s.points.map((p) => `${x(p.n).toFixed(1)},${y(p.value).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${points}" fill="none" stroke="${s.color}" stroke-width="2"${dash}/>`);
    for (const p of s.points) parts.push(`<circle cx="${x(p.n).toFixed(1)}" cy="${y(p.value).toFixed(1)}" r="3" fill="${s.color}"><title>${escapeXml(`${s.label}, N=${p.n}: ${p.value.toFixed(3)}`)}</title></circle>`);
    const ly = PAD.top + 10 + i * 20;
    parts.push(`<line x1="${WIDTH - PAD.right + 14}" x2="${WIDTH - PAD.right + 40}" y1="${ly}" y2="${ly}" stroke="${s.color}" stroke-width="2"${dash}/>`);
    parts.push(`<text x="${WIDTH - PAD.right + 46}" y="${ly + 4}">${escapeXml(s.label)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
