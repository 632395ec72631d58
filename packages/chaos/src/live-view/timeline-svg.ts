import { clock, describeFault, type Call, type Lane, type Timeline } from './timeline-model.ts';

const SVG = 'http://www.w3.org/2000/svg';
const LABEL_WIDTH = 96;
const RIGHT_PAD = 78;
const TOP = 40;
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

function callTitle(call: Call): string {
  const answer = call.status === undefined ? 'waiting for its answer' : `${call.status} ${call.outcome ?? ''}${call.fault ? ` (${call.fault})` : ''}`;
  return `#${call.seq} ${call.label} at ${clock(call.atMs)} → ${answer}`;
}

/**
 * Draws the timeline as one SVG: a time axis, a lane per session (opened → ended, with why), a
 * lane for requests that carried no live-or-known session, fault marks across every lane (a
 * window for `refuse` and a restart's `downMs`), and each request as a bar on its lane coloured
 * by outcome (`data-outcome`). Elements carry `data-*` attributes naming what they show.
 *
 * @example
 * container.replaceChildren(renderTimeline(timeline, container.clientWidth));
 */
export function renderTimeline(timeline: Timeline, width: number): SVGSVGElement {
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
  const height = TOP + Math.max(1, rows.size) * LANE_HEIGHT + AXIS_HEIGHT;
  const svg = el('svg', { viewBox: `0 0 ${width} ${height}`, height, 'data-lanes': lanes.length, 'data-calls': calls.length });

  const start = timeline.startMs;
  const span = Math.max(1_000, timeline.nowMs - start);
  const plot = Math.max(100, width - LABEL_WIDTH - RIGHT_PAD);
  const x = (ms: number) => LABEL_WIDTH + ((ms - start) / span) * plot;
  const y = (row: number) => TOP + row * LANE_HEIGHT + LANE_HEIGHT / 2;
  const bottom = TOP + rows.size * LANE_HEIGHT;

  const axis = el('g', { class: 'axis' });
  const step = STEPS_MS.find((s) => span / s <= 10) ?? STEPS_MS.at(-1)!;
  for (let t = Math.ceil(start / step) * step; t <= start + span; t += step) {
    axis.append(el('line', { x1: x(t), x2: x(t), y1: TOP - 4, y2: bottom }), el('text', { x: x(t), y: bottom + 14, 'text-anchor': 'middle' }, clock(t)));
  }
  svg.append(axis);

  timeline.marks.forEach((mark, i) => {
    const group = titled(el('g', { class: 'fault', 'data-kind': mark.fault.kind }), `${clock(mark.atMs)} ${JSON.stringify(mark.fault)}`);
    if (mark.untilMs !== undefined) {
      group.append(el('rect', { class: 'fault-window', x: x(mark.atMs), y: TOP - 4, width: Math.max(1, x(mark.untilMs) - x(mark.atMs)), height: bottom - TOP + 4 }));
    }
    group.append(
      el('line', { x1: x(mark.atMs), x2: x(mark.atMs), y1: i % 2 === 0 ? 14 : 28, y2: bottom }),
      el('text', { x: x(mark.atMs) + 3, y: i % 2 === 0 ? 12 : 26 }, describeFault(mark.fault)),
    );
    svg.append(group);
  });

  for (const [session, row] of rows) {
    const lane = timeline.lanes.get(session);
    const group = el('g', { class: 'lane', 'data-session': session, 'data-state': lane?.endedAtMs === undefined ? 'open' : 'ended' });
    if (lane?.reason) group.setAttribute('data-reason', lane.reason);
    group.append(el('text', { class: 'lane-label', x: 4, y: y(row) + 4 }, session === 0 ? 'no session' : `session ${session}`));
    if (lane) {
      const end = lane.endedAtMs ?? timeline.nowMs;
      group.append(el('line', { class: 'lane-line', x1: x(lane.openedAtMs), x2: Math.max(x(end), x(lane.openedAtMs) + 2), y1: y(row), y2: y(row) }));
      if (lane.reason) group.append(el('text', { class: 'lane-end', x: x(end) + 3, y: y(row) + 4 }, `✕ ${lane.reason}`));
    }
    for (const call of byLane.get(session) ?? []) {
      const bar = el('rect', { class: 'call', x: x(call.atMs) - 2, y: y(row) - 7, width: 4, height: 14, 'data-seq': call.seq, 'data-outcome': call.outcome ?? 'pending' });
      group.append(titled(bar, callTitle(call)));
    }
    svg.append(group);
  }
  return svg;
}
