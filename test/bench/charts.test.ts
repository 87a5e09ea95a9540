/** The benchmark charts: axes end near their data, every point lies inside the frame, the legend covers none. */
import { lineChart } from '../../bench/charts.ts';

function parse(svg: string) {
  const texts = [...svg.matchAll(/<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)<\/text>/g)].map((m) => ({ x: Number(m[1]), y: Number(m[2]), text: m[3]! }));
  const frame = /<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="\2" stroke="#333"\/>\n<line x1="\1" y1="([\d.]+)"/.exec(svg)!;
  const [left, bottom, right, top] = [Number(frame[1]), Number(frame[2]), Number(frame[3]), Number(frame[4])];
  const points = [...svg.matchAll(/<path d="([^"]+)"/g)].flatMap((m) => [...m[1]!.matchAll(/[ML]([\d.-]+) ([\d.-]+)/g)].map((p) => ({ x: Number(p[1]), y: Number(p[2]) })));
  return { texts, frame: { left, right, top, bottom }, points };
}

const jobs = [2, 5, 10, 40, 120, 300, 1200];
const svg = lineChart({
  title: 'Polls per job',
  xLabel: 'job duration (s)',
  yLabel: 'polls',
  xLog: true,
  series: [
    { name: 'ours', color: '#00f', points: jobs.map((d) => [d, Math.log2(d) + 1]) },
    { name: 'previous', color: '#f00', points: jobs.map((d) => [d, d / 17]) },
  ],
});

test('a log axis ends at the 1-2-5 step above its largest value, not a decade later', () => {
  const { texts, frame } = parse(svg);
  const xTicks = texts.filter((t) => t.y > frame.bottom && t.y < frame.bottom + 20).map((t) => t.text);
  expect(xTicks[0]).toBe('2');
  expect(xTicks.at(-1)).toBe('2000');
  expect(xTicks).not.toContain('10k');
});

test('every point of every line is inside the frame, and a linear axis ends on a tick at or above the data', () => {
  const { frame, points, texts } = parse(svg);
  expect(points.length).toBe(jobs.length * 2);
  for (const p of points) {
    expect(p.x).toBeGreaterThanOrEqual(frame.left);
    expect(p.x).toBeLessThanOrEqual(frame.right);
    expect(p.y).toBeGreaterThanOrEqual(frame.top);
    expect(p.y).toBeLessThanOrEqual(frame.bottom);
  }
  const yTicks = texts.filter((t) => t.x < frame.left).map((t) => Number(t.text));
  expect(Math.max(...yTicks)).toBeGreaterThanOrEqual(1200 / 17);
});

test('the legend sits below the plot, so it covers no point', () => {
  const { texts, frame } = parse(svg);
  const legend = texts.filter((t) => t.text === 'ours' || t.text === 'previous');
  expect(legend).toHaveLength(2);
  for (const t of legend) expect(t.y).toBeGreaterThan(frame.bottom + 20);
});
