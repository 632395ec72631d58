import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';

/** The page's scripts, compiled from `src/live-view/` (the same folder from `src/` and from `dist/`). */
const SCRIPTS = new URL('../dist/live-view/', import.meta.url);
const SCRIPT_NAME = /^\/view\/([a-z][a-z-]*\.js)$/;

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>mcp-chaos live</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="view/live-view.css">
<script type="module" src="view/live-view.js"></script>
</head>
<body>
<header>
  <h1>mcp-chaos <span>live</span></h1>
  <p id="status" data-state="connecting">connecting…</p>
  <p id="in-force"></p>
</header>
<ul id="legend" aria-label="legend"></ul>
<div id="timeline" role="img" aria-label="sessions as lanes over time, faults as marks, requests coloured by outcome"></div>
<h2>Events, newest first</h2>
<ol id="events"></ol>
</body>
</html>
`;

const CSS = `
:root { font: 14px/1.4 system-ui, sans-serif; color: #212529; background: #fff; }
body { margin: 16px 20px; }
header { display: flex; align-items: baseline; gap: 16px; flex-wrap: wrap; }
h1 { font-size: 18px; margin: 0; } h1 span { color: #e03131; }
h2 { font-size: 14px; margin: 16px 0 4px; color: #495057; }
#status { margin: 0; padding: 1px 8px; border-radius: 10px; background: #f1f3f5; }
#status[data-state="live"] { background: #d3f9d8; } #status[data-state="closed"] { background: #ffe3e3; }
#status[data-state="stopped"] { background: #e7f5ff; color: #1864ab; }
#in-force { margin: 0; color: #495057; }
#legend { list-style: none; display: flex; flex-wrap: wrap; gap: 4px 16px; padding: 0; margin: 10px 0; }
#legend li { display: flex; align-items: center; gap: 6px; }
#legend svg { width: 14px; height: 14px; }
#timeline svg { width: 100%; display: block; }
#events { font: 12px/1.5 ui-monospace, monospace; white-space: pre; max-height: 240px; overflow: auto; padding-left: 0; list-style: none; margin: 0; }
.axis text, .lane-label { font-size: 11px; fill: #495057; }
.axis line { stroke: #e9ecef; }
.lane-line { stroke: #adb5bd; stroke-width: 2; }
.lane[data-state="ended"] .lane-line { stroke: #ced4da; }
.lane-end { font-size: 11px; fill: #c92a2a; paint-order: stroke; stroke: #fff; stroke-width: 3px; stroke-linejoin: round; }
.fault line { stroke: #343a40; stroke-dasharray: 3 3; }
.fault .bracket { stroke-dasharray: none; }
.fault .hit { stroke: transparent; stroke-width: 9; stroke-dasharray: none; }
.fault-label { font-size: 11px; fill: #343a40; font-weight: 600; }
.server-stopped line { stroke: #1864ab; stroke-width: 1.5; }
.server-stopped .fault-label { fill: #1864ab; }
.fault-window { fill: #fa5252; fill-opacity: 0.12; }
.call { stroke: none; }
[data-outcome="pending"] { fill: #fff; stroke: #868e96; stroke-width: 1; }
[data-outcome="ok"] { fill: #2f9e44; }
[data-outcome="session-gone"] { fill: #e03131; }
[data-outcome="slow-down"] { fill: #f08c00; }
[data-outcome="server-error"] { fill: #9c36b5; }
[data-outcome="client-error"] { fill: #868e96; }
[data-outcome="dropped"] { fill: #1c7ed6; }
`;

function headers(contentType: string, frameAncestors: readonly string[]): Record<string, string> {
  return {
    'content-type': contentType,
    'content-security-policy': [
      "default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'", "img-src 'self' data:",
      "base-uri 'none'", "form-action 'none'", `frame-ancestors ${["'self'", ...frameAncestors].join(' ')}`,
    ].join('; '),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  };
}

/**
 * Serves the live view at `{control}/` (its page, style and scripts), under a strict
 * Content-Security-Policy: scripts and styles from this server only, nothing inline, no `eval`,
 * connections to this server only (its `{control}/live`), framed only by this server and the
 * `--control-origin` origins. Answers whether `path` (under the control path) was the page's.
 *
 * @example
 * if (await serveLivePage('/', res, [])) return;
 */
export async function serveLivePage(path: string, res: ServerResponse, frameAncestors: readonly string[]): Promise<boolean> {
  if (path === '/') return (res.writeHead(200, headers('text/html; charset=utf-8', frameAncestors)).end(HTML), true);
  if (path === '/view/live-view.css') return (res.writeHead(200, headers('text/css; charset=utf-8', frameAncestors)).end(CSS), true);
  const script = SCRIPT_NAME.exec(path)?.[1];
  if (script === undefined) return false;
  const text = await readFile(new URL(script, SCRIPTS), 'utf8').catch(() => undefined);
  if (text === undefined) res.writeHead(404, { 'content-type': 'text/plain' }).end('no such script: is the package built?');
  else res.writeHead(200, headers('text/javascript; charset=utf-8', frameAncestors)).end(text);
  return true;
}
