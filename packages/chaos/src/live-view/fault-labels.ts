/** A mark to label: where its line is, and what its label says. */
export interface LabelPoint {
  readonly x: number;
  readonly text: string;
}

/** How labels are laid out: text widths, the drawing's right edge, rows at most, spacing. */
export interface LabelLayoutOptions {
  /** The drawn width of a label's text, in the drawing's units. */
  readonly measure: (text: string) => number;
  /** No label ends right of this; a label that would is put left of its line. */
  readonly right: number;
  /** Rows of labels at most; a label with no room in any is left to its mark's hover title. */
  readonly maxRows: number;
  /** Space kept free around each label. */
  readonly gap: number;
  /** Between a line and its label's text. */
  readonly pad: number;
}

/**
 * One label: for one mark, or for a run of marks that say the same thing close together
 * (`4× drop-stream`, its line at the first, a bracket to the last). `row` is absent when no row
 * had room: the label is not drawn, its marks keep their hover titles.
 */
export interface PlacedLabel {
  /** Indexes (into the points given) of the marks it labels, in order. */
  readonly marks: readonly number[];
  readonly text: string;
  readonly row?: number;
  /** Where the text starts, and how wide it is. */
  readonly x: number;
  readonly width: number;
  /** The first and last of its marks' lines. */
  readonly fromX: number;
  readonly toX: number;
}

interface Group {
  readonly marks: number[];
  readonly text: string;
  readonly fromX: number;
  toX: number;
}

/** How close a line may pass beside a label's text. */
const LINE_CLEARANCE = 2;

/** `4× drop-stream`; `2× (status 429 ×2)` when the text has a count of its own. */
function labelText(group: Group): string {
  if (group.marks.length === 1) return group.text;
  return `${group.marks.length}× ${group.text.includes('×') ? `(${group.text})` : group.text}`;
}

/** Marks in a row (by x) that say the same thing, each within the label of the first, become one. */
function groupAlike(points: readonly LabelPoint[], options: LabelLayoutOptions): Group[] {
  const groups: Group[] = [];
  points.forEach((point, i) => {
    const last = groups.at(-1);
    const reach = last ? last.fromX + options.pad + options.measure(labelText(last)) + options.gap : -Infinity;
    if (last && last.text === point.text && point.x >= last.fromX && point.x <= reach) {
      last.marks.push(i);
      last.toX = point.x;
    } else groups.push({ marks: [i], text: point.text, fromX: point.x, toX: point.x });
  });
  return groups;
}

/**
 * Lays fault labels out in rows above the lanes so that no two overlap, and no mark's line
 * (which runs from its label's row down to the lanes) crosses a label in a row below it. Each
 * label takes the first row where it fits, beside its line (left of it near the right edge).
 * Alike marks close together share one label. Pure: the widths come from `measure`.
 *
 * @example
 * const labels = layoutFaultLabels([{ x: 100, text: 'restart' }, { x: 104, text: 'status 429 ×2' }],
 *   { measure: (t) => t.length * 7, right: 1_000, maxRows: 6, gap: 8, pad: 3 });
 * labels.map((l) => l.row); // [0, 1]
 */
export function layoutFaultLabels(points: readonly LabelPoint[], options: LabelLayoutOptions): PlacedLabel[] {
  const placed: (PlacedLabel & { readonly left: number; readonly end: number })[] = [];
  const labels: PlacedLabel[] = [];
  for (const group of groupAlike(points, options)) {
    const text = labelText(group);
    const width = options.measure(text);
    let x = group.fromX + options.pad;
    if (x + width > options.right) x = Math.max(0, group.fromX - options.pad - width);
    // What the label takes: its text, and its bracket from the first mark to the last.
    const left = Math.min(x, group.fromX) - options.gap;
    const end = Math.max(x + width, group.toX) + options.gap;
    const crosses = (lineX: number, label: { readonly x: number; readonly width: number }) =>
      lineX >= label.x - LINE_CLEARANCE && lineX <= label.x + label.width + LINE_CLEARANCE;
    const fits = (row: number) => placed.every((other) => {
      if (other.row === row) return other.end <= left || other.left >= end;
      if (other.row! < row) return !crosses(other.fromX, { x, width }); // its line runs down through this row
      return !crosses(group.fromX, other); // this line runs down through its row
    });
    let row: number | undefined;
    for (let r = 0; r < options.maxRows && row === undefined; r++) if (fits(r)) row = r;
    const label = { marks: group.marks, text, x, width, fromX: group.fromX, toX: group.toX, ...(row === undefined ? {} : { row }) };
    labels.push(label);
    if (row !== undefined) placed.push({ ...label, left, end });
  }
  return labels;
}
