import { layoutFaultLabels, type LabelPoint } from './fault-labels.ts';
import { clock, describeFault, type Call, type Lane, type Timeline } from './timeline-model.ts';

const SVG = 'http://www.w3.org/2000/svg';
const LABEL_WIDTH = 96;
const RIGHT_PAD = 78;
/** The fault labels' rows above the lanes: the first baseline, the step, how many at most. */
const LABEL_TOP = 12;
const LABEL_ROW = 16;
const LABEL_ROWS = 6;
const LABEL_GAP = 8;
const LABEL_PAD = 3;
const LANE_HEIGHT = 26;
const AXIS_HEIGHT = 20;
const STEPS_MS = [250, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000];

function el<K extends keyof SVGElementTagNameMap>(name: K, attributes: Record<string, string | number>, text?: string): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

function titled<T extends SVGElement>(node: T, title: string): T {
  node.append(el('title', {}, title));
  return node;
}

/** A label's width when the page gives no measure: about what 11 px bold sans-serif takes. */
const estimate = (text: string) => text.length * 7;

/** An axis tick: as precise as its step (`3.25 s` on a 250 ms step, not `3.3 s`). */
const tick = (ms: number, step: number) => (step % 100 === 0 ? clock(ms) : `${(ms / 1_000).toFixed(2)} s`);

function callTitle(call: Call): string {
  const answer = call.status === undefined ? 'waiting for its answer' : `${call.status} ${call.outcome ?? ''}${call.fault ? ` (${call.fault})` : ''}`;
  return `#${call.seq} ${call.label} at ${clock(call.atMs)} → ${answer}`;
}

/**
 * Draws the timeline as one SVG: a time axis, a lane per session (opened → ended, with why), a
 * lane for requests that carried no live-or-known session, fault marks across every lane (a
 * window for `refuse` and a restart's `downMs`), and each request as a bar on its lane coloured
 * by outcome (`data-outcome`). Fault labels are laid out in rows so that none overlaps
 * (`measure` gives a label's drawn width); when the server has stopped, a last mark says so.
 * Elements carry `data-*` attributes naming what they show.
 *
 * @example
 * container.replaceChildren(renderTimeline(timeline, container.clientWidth, (text) => context2d.measureText(text).width));
 */
export function renderTimeline(timeline: Timeline, width: number, measure: (text: string) => number = estimate): SVGSVGElement {
  const lanes: Lane[] = [...timeline.lanes.values()].sort((a, b) => a.session - b.session);
  const calls = [...timeline.calls.values()];
  const byLane = new Map<number, Call[]>();
  for (const call of calls) {
    const onLane = byLane.get(call.lane);
    if (onLane) onLane.push(call);
    else byLane.set(call.lane, [call]);
  }
  const rows = new Map<number, number>();
  if (byLane.has(0)) rows.set(0, 0);
  for (const lane of lanes) rows.set(lane.session, rows.size);
  const start = timeline.startMs;
  const span = Math.max(1_000, timeline.nowMs - start);
  const plot = Math.max(100, width - LABEL_WIDTH - RIGHT_PAD);
  const x = (ms: number) => LABEL_WIDTH + ((ms - start) / span) * plot;

  const points: LabelPoint[] = timeline.marks.map((mark) => ({ x: x(mark.atMs), text: describeFault(mark.fault) }));
  if (timeline.stoppedAtMs !== undefined) points.push({ x: x(timeline.stoppedAtMs), text: 'server stopped' });
  const labels = layoutFaultLabels(points, { measure, right: width - 2, maxRows: LABEL_ROWS, gap: LABEL_GAP, pad: LABEL_PAD });
  const labelRows = Math.max(1, ...labels.map((l) => (l.row ?? 0) + 1));
  const top = LABEL_TOP + labelRows * LABEL_ROW;
  const y = (row: number) => top + row * LANE_HEIGHT + LANE_HEIGHT / 2;
  const bottom = top + rows.size * LANE_HEIGHT;
  const height = top + Math.max(1, rows.size) * LANE_HEIGHT + AXIS_HEIGHT;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, height, 'data-lanes': lanes.length, 'data-calls': calls.length });

  const axis = el('g', { class: 'axis' });
  const step = STEPS_MS.find((s) => span / s <= 10) ?? STEPS_MS.at(-1)!;
  for (let t = Math.ceil(start / step) * step; t <= start + span; t += step) {
    axis.append(el('line', { x1: x(t), x2: x(t), y1: top - 4, y2: bottom }), el('text', { x: x(t), y: bottom + 14, 'text-anchor': 'middle' }, tick(t, step)));
  }
  svg.append(axis);

  const groups = points.map((_, i) => {
    const mark = timeline.marks[i];
    if (!mark) return el('g', { class: 'server-stopped' }); // the last point: the server's orderly stop
    const group = titled(el('g', { class: 'fault', 'data-kind': mark.fault.kind }), `${clock(mark.atMs)} ${JSON.stringify(mark.fault)}`);
    if (mark.untilMs !== undefined) {
      group.append(el('rect', { class: 'fault-window', x: x(mark.atMs), y: top - 4, width: Math.max(1, x(mark.untilMs) - x(mark.atMs)), height: bottom - top + 4 }));
    }
    return group;
  });
  for (const label of labels) {
    const baseline = label.row === undefined ? undefined : LABEL_TOP + label.row * LABEL_ROW;
    label.marks.forEach((i, nth) => {
      const from = nth === 0 && baseline !== undefined ? baseline + 2 : top - 4; // only a label's first mark runs up to it
      groups[i]!.append(el('line', { x1: points[i]!.x, x2: points[i]!.x, y1: from, y2: bottom }));
    });
    if (baseline === undefined) { // no room: its title tells it, on a line wide enough to hover
      for (const i of label.marks) {
        groups[i]!.dataset.label = 'hover';
        groups[i]!.append(el('line', { class: 'hit', x1: points[i]!.x, x2: points[i]!.x, y1: top - 4, y2: bottom }));
      }
      continue;
    }
    const first = groups[label.marks[0]!]!;
    if (label.toX > label.fromX) first.append(el('line', { class: 'bracket', x1: label.fromX, x2: label.toX, y1: baseline + 2, y2: baseline + 2 }));
    first.append(el('text', { class: 'fault-label', x: label.x, y: baseline, 'data-row': label.row!, 'data-marks': label.marks.length }, label.text));
  }
  svg.append(...groups);

  for (const [session, row] of rows) {
    const lane = timeline.lanes.get(session);
    const group = el('g', { class: 'lane', 'data-session': session, 'data-state': lane?.endedAtMs === undefined ? 'open' : 'ended' });
    if (lane?.reason) group.setAttribute('data-reason', lane.reason);
    group.append(el('text', { class: 'lane-label', x: 4, y: y(row) + 4 }, session === 0 ? 'no session' : `session ${session}`));
    if (lane) {
      const end = lane.endedAtMs ?? timeline.nowMs;
      group.append(el('line', { class: 'lane-line', x1: x(lane.openedAtMs), x2: Math.max(x(end), x(lane.openedAtMs) + 2), y1: y(row), y2: y(row) }));
    }
    for (const call of byLane.get(session) ?? []) {
      const bar = el('rect', { class: 'call', x: x(call.atMs) - 2, y: y(row) - 7, width: 4, height: 14, 'data-seq': call.seq, 'data-outcome': call.outcome ?? 'pending' });
      group.append(titled(bar, callTitle(call)));
    }
    // Over the calls, with a halo: the bars of a client that keeps a dead session do not hide why it ended.
    if (lane?.reason) group.append(el('text', { class: 'lane-end', x: x(lane.endedAtMs ?? timeline.nowMs) + 3, y: y(row) + 4 }, `✕ ${lane.reason}`));
    svg.append(group);
  }
  return svg;
}
