/** One line of a chart: points in data units. */
export interface Series {
  readonly label: string;
  readonly color: string;
  readonly points: readonly (readonly [number, number])[];
  /** Draw as bars from 0 instead of a line. */
  readonly bars?: boolean;
}

/** A vertical marker at `x`, labelled (a fault in a timeline). */
export interface Marker {
  readonly x: number;
  readonly label: string;
}

export interface ChartSpec {
  readonly title: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly Series[];
  readonly markers?: readonly Marker[];
  /** Logarithmic x axis (latencies spread over decades). */
  readonly logX?: boolean;
  readonly width?: number;
  readonly height?: number;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const fmt = (n: number) => (Math.abs(n) >= 100 || Number.isInteger(n) ? String(Math.round(n)) : n.toPrecision(2));

/** Round tick values over [min, max]: 1-2-5 steps, or powers of ten on a log axis. */
export function ticks(min: number, max: number, log = false): number[] {
  if (log) {
    const out: number[] = [];
    for (let p = Math.floor(Math.log10(min)); p <= Math.ceil(Math.log10(max)); p++) out.push(10 ** p);
    return out;
  }
  const span = max - min || 1;
  const raw = span / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw)!;
  const out: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + step * 1e-9; v += step) out.push(Number(v.toPrecision(12)));
  return out;
}

/**
 * A self-contained SVG line or bar chart, with axes, ticks, a legend and optional markers: no
 * dependencies, no scripts.
 *
 * @example
 * const svg = chart({ title: 'Latency', xLabel: 'ms', yLabel: '%', series: [{ label: 'a', color: '#06c', points: [[1, 50], [2, 100]] }] });
 */
export function chart(spec: ChartSpec): string {
  const width = spec.width ?? 760;
  const height = spec.height ?? 400;
  // The legend flows in rows under the x axis (text width estimated at 7 px a character).
  const legend: { s: Series; x: number; row: number }[] = [];
  let legendX = 64;
  let legendRows = 1;
  for (const s of spec.series) {
    const w = 30 + s.label.length * 7;
    if (legendX + w > width - 16 && legendX > 64) [legendX, legendRows] = [64, legendRows + 1];
    legend.push({ s, x: legendX, row: legendRows - 1 });
    legendX += w;
  }
  const m = { left: 64, right: 16, top: 40, bottom: 50 + legendRows * 18 };
  const all = spec.series.flatMap((s) => s.points);
  if (all.length === 0) throw new RangeError('a chart needs points');
  const xs = [...all.map(([x]) => x), ...(spec.markers ?? []).map((mk) => mk.x)];
  let xMin = Math.min(...xs);
  let xMax = Math.max(...xs);
  if (spec.logX) xMin = Math.max(xMin, 1e-3);
  if (xMin === xMax) xMax = xMin + 1;
  const yMax = Math.max(...all.map(([, y]) => y)) || 1;
  const xTicks = ticks(xMin, xMax, spec.logX);
  if (spec.logX) [xMin, xMax] = [xTicks[0]!, xTicks[xTicks.length - 1]!];
  const yTicks = ticks(0, yMax);
  const yTop = Math.max(yMax, yTicks[yTicks.length - 1]!);
  const px = (x: number) => m.left + ((spec.logX ? Math.log10(x) - Math.log10(xMin) : x - xMin) / (spec.logX ? Math.log10(xMax) - Math.log10(xMin) : xMax - xMin)) * (width - m.left - m.right);
  const py = (y: number) => height - m.bottom - (y / yTop) * (height - m.top - m.bottom);
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="12">`,
    `<rect width="${width}" height="${height}" fill="#fff"/>`,
    `<text x="${width / 2}" y="22" text-anchor="middle" font-size="15" font-weight="600">${escape(spec.title)}</text>`,
  ];
  for (const t of yTicks) {
    parts.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${py(t).toFixed(1)}" y2="${py(t).toFixed(1)}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${m.left - 6}" y="${(py(t) + 4).toFixed(1)}" text-anchor="end" fill="#444">${fmt(t)}</text>`);
  }
  for (const t of xTicks) {
    parts.push(`<line x1="${px(t).toFixed(1)}" x2="${px(t).toFixed(1)}" y1="${height - m.bottom}" y2="${height - m.bottom + 5}" stroke="#444"/>`);
    parts.push(`<text x="${px(t).toFixed(1)}" y="${height - m.bottom + 18}" text-anchor="middle" fill="#444">${fmt(t)}</text>`);
  }
  parts.push(`<line x1="${m.left}" x2="${width - m.right}" y1="${height - m.bottom}" y2="${height - m.bottom}" stroke="#444"/>`);
  parts.push(`<text x="${(m.left + width - m.right) / 2}" y="${height - m.bottom + 34}" text-anchor="middle">${escape(spec.xLabel)}</text>`);
  parts.push(`<text transform="translate(16 ${(m.top + height - m.bottom) / 2}) rotate(-90)" text-anchor="middle">${escape(spec.yLabel)}</text>`);
  for (const marker of spec.markers ?? []) {
    const x = px(marker.x).toFixed(1);
    parts.push(`<line x1="${x}" x2="${x}" y1="${m.top}" y2="${height - m.bottom}" stroke="#c33" stroke-dasharray="3 3" stroke-opacity="0.6"><title>${escape(marker.label)}</title></line>`);
  }
  for (const s of spec.series) {
    if (s.bars) {
      const barWidth = Math.max(1, (width - m.left - m.right) / Math.max(1, s.points.length) - 1);
      for (const [x, y] of s.points) {
        parts.push(`<rect x="${(px(x) - barWidth / 2).toFixed(1)}" y="${py(y).toFixed(1)}" width="${barWidth.toFixed(1)}" height="${(height - m.bottom - py(y)).toFixed(1)}" fill="${s.color}" fill-opacity="0.75"/>`);
      }
    } else {
      const d = s.points.map(([x, y], i) => `${i === 0 ? 'M' : 'L'}${px(x).toFixed(1)} ${py(y).toFixed(1)}`).join(' ');
      parts.push(`<path d="${d}" fill="none" stroke="${s.color}" stroke-width="2"/>`);
    }
  }
  legend.forEach(({ s, x, row }) => {
    const y = height - 10 - (legendRows - 1 - row) * 18;
    parts.push(`<rect x="${x}" y="${y - 10}" width="12" height="12" fill="${s.color}"/>`);
    parts.push(`<text x="${x + 18}" y="${y}">${escape(s.label)}</text>`);
  });
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}

/**
 * The empirical distribution of a sample as chart points: (value, percent of the sample at or below it).
 *
 * @example
 * distribution([3, 1, 2]); // [[1, 33.3…], [2, 66.6…], [3, 100]]
 */
export function distribution(sample: readonly number[]): [number, number][] {
  const sorted = [...sample].sort((a, b) => a - b);
  return sorted.map((value, i) => [value, ((i + 1) / sorted.length) * 100]);
}
