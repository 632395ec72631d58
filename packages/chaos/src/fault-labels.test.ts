import { describe, expect, it } from 'vitest';
import { layoutFaultLabels, type LabelLayoutOptions, type LabelPoint, type PlacedLabel } from './live-view/fault-labels.ts';

const OPTIONS: LabelLayoutOptions = { measure: (text) => text.length * 7, right: 1_400, maxRows: 6, gap: 8, pad: 3 };

/** Every way two drawn labels could collide: boxes in one row, a line through a label of a row below. */
function collisions(labels: readonly PlacedLabel[]): string[] {
  const drawn = labels.filter((l) => l.row !== undefined);
  const found: string[] = [];
  for (const a of drawn) {
    for (const b of drawn) {
      if (a === b) continue;
      if (a.row === b.row && a.x < b.x + b.width && b.x < a.x + a.width) found.push(`"${a.text}" overlaps "${b.text}" in row ${a.row}`);
      if (a.row! < b.row! && a.fromX >= b.x - 2 && a.fromX <= b.x + b.width + 2) found.push(`the line of "${a.text}" crosses "${b.text}"`);
    }
  }
  return found;
}

/** A fixed sequence of pseudo-random numbers in [0, 1) (a linear congruential generator), so each run sees the same cases. */
function seeded(seed: number): () => number {
  let state = seed;
  return () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe('layoutFaultLabels: fault labels that never overlap', () => {
  it('stacks a restart, a 429 burst and four stream drops within a second of a 40 s story into rows, the drops under one label', () => {
    const perSecond = 1_200 / 40; // 1,400 px wide, 40 s drawn
    const at = (s: number) => 100 + s * perSecond;
    const points: LabelPoint[] = [
      { x: at(30), text: 'restart' },
      { x: at(30.2), text: 'status 429 ×2' },
      ...[30.4, 30.6, 30.8, 30.9].map((s) => ({ x: at(s), text: 'drop-stream' })),
    ];
    const labels = layoutFaultLabels(points, OPTIONS);
    expect(labels.map((l) => [l.text, l.row])).toEqual([['restart', 0], ['status 429 ×2', 1], ['4× drop-stream', 2]]);
    expect(labels[2]).toMatchObject({ marks: [2, 3, 4, 5], fromX: at(30.4), toX: at(30.9) });
    expect(collisions(labels)).toEqual([]);
  });

  it('keeps one row for faults far apart, and puts a label left of its line at the right edge', () => {
    const labels = layoutFaultLabels([{ x: 100, text: 'evict all' }, { x: 600, text: 'restart' }, { x: 1_390, text: 'evict oldest' }], OPTIONS);
    expect(labels.map((l) => l.row)).toEqual([0, 0, 0]);
    expect(labels[2]!.x + labels[2]!.width).toBeLessThanOrEqual(1_390);
  });

  it('labels alike marks apart from each other separately, and a run of alike marks only while they sit under its label', () => {
    const labels = layoutFaultLabels([
      { x: 100, text: 'drop-stream' }, { x: 110, text: 'drop-stream' }, { x: 400, text: 'drop-stream' }, { x: 405, text: 'status 429' }, { x: 410, text: 'drop-stream' },
    ], OPTIONS);
    expect(labels.map((l) => [l.text, l.marks])).toEqual([['2× drop-stream', [0, 1]], ['drop-stream', [2]], ['status 429', [3]], ['drop-stream', [4]]]);
    const counted = layoutFaultLabels([{ x: 100, text: 'status 429 ×2' }, { x: 102, text: 'status 429 ×2' }], OPTIONS);
    expect(counted.map((l) => l.text)).toEqual(['2× (status 429 ×2)']);
  });

  it('leaves a label to its mark\'s hover title when every row is taken, and never draws two over each other', () => {
    const points = Array.from({ length: 10 }, (_, i) => ({ x: 500 + i, text: `fault number ${i}` }));
    const labels = layoutFaultLabels(points, OPTIONS);
    expect(labels.filter((l) => l.row !== undefined)).toHaveLength(6);
    expect(labels.filter((l) => l.row === undefined).flatMap((l) => l.marks)).toEqual([6, 7, 8, 9]);
    expect(collisions(labels)).toEqual([]);
  });

  it('lays out 300 seeded random sets of faults without a collision, each mark under exactly one label', () => {
    const kinds = ['restart', 'restart, down 400 ms', 'status 429 ×2', 'drop-stream', 'drop-stream, no ids', 'evict oldest', 'idle budget 1500 ms', 'refuse 300 ms'];
    const random = seeded(22);
    let drawn = 0;
    const wrong: string[] = [];
    for (let run = 0; run < 300; run++) {
      const width = 480 + Math.floor(random() * 1_200);
      const count = 1 + Math.floor(random() * 30);
      const points = Array.from({ length: count }, () => ({ x: 96 + random() * (width - 96 - 78), text: kinds[Math.floor(random() * kinds.length)]! }))
        .sort((a, b) => a.x - b.x);
      const labels = layoutFaultLabels(points, { ...OPTIONS, right: width - 2 });
      wrong.push(...collisions(labels).map((c) => `run ${run}: ${c}`));
      if (labels.flatMap((l) => l.marks).join() !== points.map((_, i) => i).join()) wrong.push(`run ${run}: not every mark under one label`);
      for (const label of labels.filter((l) => l.row !== undefined)) {
        if (label.x < 0 || label.x + label.width > width - 2) wrong.push(`run ${run}: "${label.text}" leaves the drawing`);
        drawn++;
      }
    }
    expect(wrong).toEqual([]);
    expect(drawn).toBeGreaterThan(1_000); // the cases were not all hover-only
  });
});
