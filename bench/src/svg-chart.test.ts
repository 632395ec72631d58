import { describe, expect, it } from 'vitest';
import { chart, distribution, ticks } from './svg-chart.ts';

describe('svg chart', () => {
  it('picks round ticks', () => {
    expect(ticks(0, 10)).toEqual([0, 2, 4, 6, 8, 10]);
    expect(ticks(0, 0.9)).toEqual([0, 0.2, 0.4, 0.6, 0.8]);
    expect(ticks(3, 450, true)).toEqual([1, 10, 100, 1000]);
  });

  it('draws every series, marker and label, escaped', () => {
    const svg = chart({
      title: 'a <b> & c', xLabel: 'ms', yLabel: '%',
      series: [{ label: 'line', color: '#06c', points: [[1, 1], [2, 3]] }, { label: 'bars', color: '#c60', bars: true, points: [[1, 2], [2, 1]] }],
      markers: [{ x: 1.5, label: 'evict' }],
    });
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg).toContain('a &lt;b&gt; &amp; c');
    expect(svg.match(/<path /g)).toHaveLength(1);
    expect(svg.match(/fill-opacity="0.75"/g)).toHaveLength(2);
    expect(svg).toContain('<title>evict</title>');
    expect(() => chart({ title: '', xLabel: '', yLabel: '', series: [] })).toThrow(RangeError);
  });

  it('turns a sample into its distribution', () => {
    expect(distribution([30, 10, 20]).map(([v, p]) => [v, Math.round(p)])).toEqual([[10, 33], [20, 67], [30, 100]]);
  });
});
