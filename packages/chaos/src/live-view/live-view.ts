// The live view's page script (served by mcp-chaos at `{control}/view/live-view.js`): listens to
// `{control}/live` and draws what it says. A plain ES module; no framework, no inline script.
import { LIVE_SCHEMA_VERSION, LIVE_STOPPED_CLOSE_CODE, REQUEST_OUTCOMES, type LiveMessage } from './live-schema.ts';
import { clock, Timeline } from './timeline-model.ts';
import { renderTimeline } from './timeline-svg.ts';

const RECONNECT_MS = [500, 1_000, 2_000, 5_000];
const SVG = 'http://www.w3.org/2000/svg';

const timeline = new Timeline();
const status = document.getElementById('status')!;
const inForce = document.getElementById('in-force')!;
const drawing = document.getElementById('timeline')!;
const events = document.getElementById('events')!;

/** A label's drawn width: the fault labels' font (`.fault-label` in the page's style), measured. */
const context2d = document.createElement('canvas').getContext('2d');
function measure(text: string): number {
  if (!context2d) return text.length * 7;
  context2d.font = `600 11px ${getComputedStyle(drawing).fontFamily}`;
  return context2d.measureText(text).width;
}

function setStatus(state: 'connecting' | 'live' | 'closed' | 'stopped', text: string): void {
  status.dataset.state = state;
  status.textContent = text;
}

function swatch(attributes: Record<string, string>): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 14 14');
  const shape = document.createElementNS(SVG, attributes.shape === 'line' ? 'line' : 'rect');
  for (const [key, value] of Object.entries(attributes)) if (key !== 'shape') shape.setAttribute(key, value);
  svg.append(shape);
  return svg;
}

function legend(): void {
  const items: [SVGSVGElement, string, string][] = REQUEST_OUTCOMES.map(({ outcome, meaning }) =>
    [swatch({ x: '5', y: '0', width: '4', height: '14', class: 'call', 'data-outcome': outcome }), meaning, outcome]);
  items.push([swatch({ x: '5', y: '0', width: '4', height: '14', class: 'call', 'data-outcome': 'pending' }), 'no answer yet', 'pending']);
  const fault = swatch({ shape: 'line', x1: '7', x2: '7', y1: '0', y2: '14' });
  fault.classList.add('fault');
  items.push([fault, 'a fault applied (shaded: connections refused)', 'fault']);
  const lane = swatch({ shape: 'line', x1: '0', x2: '14', y1: '7', y2: '7', class: 'lane-line' });
  items.push([lane, 'a session, opened → ended (✕ and why)', 'lane']);
  document.getElementById('legend')!.replaceChildren(...items.map(([icon, text, key]) => {
    const item = document.createElement('li');
    item.dataset.legend = key;
    item.append(icon, text);
    return item;
  }));
}

let dirty = true;
function draw(): void {
  if (!dirty) return;
  dirty = false;
  drawing.replaceChildren(renderTimeline(timeline, Math.max(480, drawing.clientWidth), measure));
  const f = timeline.inForce;
  inForce.textContent = f === undefined ? '' : `${timeline.mode} · dialect ${f.dialect} · idle budget ${f.idleBudgetMs === null ? 'off' : `${f.idleBudgetMs} ms`} · capacity ${f.capacity ?? 'off'}`;
  events.replaceChildren(...timeline.log.slice().reverse().map(({ atMs, text }) => {
    const item = document.createElement('li');
    item.textContent = `${clock(atMs).padStart(8)}  ${text}`;
    return item;
  }));
}

function connect(attempt: number): void {
  const url = new URL('live', location.href);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  const socket = new WebSocket(url);
  let opened = false;
  let lastAt = 0;
  let lastSeen = performance.now();
  socket.onopen = () => (opened = true);
  socket.onmessage = ({ data }) => {
    const message = JSON.parse(String(data)) as LiveMessage;
    if (message.type === 'hello' && message.version !== LIVE_SCHEMA_VERSION) {
      socket.onclose = () => clearInterval(tick); // no use trying again: reload the page the server serves
      setStatus('closed', `this page reads schema ${LIVE_SCHEMA_VERSION}; the server speaks ${message.version as number}: reload`);
      return socket.close();
    }
    if (message.type === 'hello') setStatus('live', `live · ${url.host}`);
    if (message.type === 'stopped') setStatus('stopped', `server stopped at ${clock(message.atMs)} · the run is over`);
    timeline.apply(message);
    lastAt = timeline.nowMs;
    lastSeen = performance.now();
    dirty = true;
  };
  // Between messages the clock still runs: open lanes grow to "now".
  const tick = setInterval(() => {
    if (!opened || timeline.stoppedAtMs !== undefined) return;
    timeline.nowMs = Math.max(timeline.nowMs, lastAt + (performance.now() - lastSeen));
    dirty = true;
  }, 500);
  socket.onclose = ({ code, reason }) => {
    clearInterval(tick);
    // An orderly stop is the end of the run, not a fault: the drawing stays as it was, and no retry.
    if (timeline.stoppedAtMs !== undefined || code === LIVE_STOPPED_CLOSE_CODE) {
      if (timeline.stoppedAtMs === undefined) setStatus('stopped', 'server stopped · the run is over');
      return;
    }
    const wait = RECONNECT_MS[Math.min(attempt, RECONNECT_MS.length - 1)]!;
    setStatus('closed', `${opened ? 'connection lost' : 'cannot connect'}${reason ? `: ${reason}` : ` (${code})`} · again in ${wait / 1_000} s`);
    setTimeout(() => connect(opened ? 0 : attempt + 1), wait);
  };
}

legend();
connect(0);
const frame = () => (draw(), requestAnimationFrame(frame));
requestAnimationFrame(frame);
