// The web demo's page: its markup, style and headers (the script is demo-web-page.ts, bundled).

/**
 * The page's headers: a strict Content-Security-Policy (its own script and style, nothing inline,
 * no eval; fetches to and frames from the chaos servers on 127.0.0.1 only).
 */
export const DEMO_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': [
    "default-src 'none'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "connect-src 'self' http://127.0.0.1:*",
    'frame-src http://127.0.0.1:*', "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'",
  ].join('; '),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The page, told where the chaos server's control API is.
 *
 * @example
 * demoPageHtml('http://127.0.0.1:41233/_chaos');
 */
export function demoPageHtml(control: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="chaos-control" content="${escape(control)}">
<title>mcp-resilience demo</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/demo.css">
<script type="module" src="/demo.js"></script>
</head>
<body>
<header>
  <h1>mcp-resilience demo</h1>
  <p>Two official MCP SDK 1.x clients in this page, through the same churn: one as it ships, one whose transport is given <code>createResilientFetch()</code> of <code>@mcp-resilience/browser</code>. Beside them, what the chaos server saw.</p>
  <p id="progress" data-state="starting">starting…</p>
</header>
<main>
  <section id="story" aria-label="the story"></section>
  <iframe id="live" title="mcp-chaos live view"></iframe>
</main>
</body>
</html>
`;
}

export const DEMO_PAGE_CSS = `
:root { font: 14px/1.45 system-ui, sans-serif; color: #212529; }
body { margin: 16px 20px; }
h1 { font-size: 20px; margin: 0 0 4px; }
header p { margin: 4px 0; color: #495057; max-width: 1100px; }
#progress { font-weight: 600; color: #212529; }
#progress[data-state="done"] { color: #2b8a3e; } #progress[data-state="failed"] { color: #c92a2a; }
main { display: grid; grid-template-columns: minmax(420px, 1fr) minmax(520px, 1.15fr); gap: 16px; margin-top: 12px; align-items: start; }
#live { width: 100%; height: calc(100vh - 150px); min-height: 520px; border: 1px solid #dee2e6; border-radius: 4px; }
#story { font: 12.5px/1.5 ui-monospace, monospace; max-height: calc(100vh - 150px); overflow: auto; }
.line { margin: 0; white-space: pre-wrap; }
.line[data-kind="title"] { font-weight: 600; }
.line[data-kind="act"] { font-weight: 600; margin-top: 12px; }
.line[data-kind="part"] { margin-top: 6px; font-style: italic; }
.line[data-kind="note"] { padding-left: 11ch; color: #495057; }
.line[data-kind="summary"] { margin-top: 12px; font-weight: 600; }
.side { display: inline-block; width: 10ch; font-weight: 600; }
.line[data-side="plain"] .side { color: #c92a2a; } .line[data-side="resilient"] .side { color: #2b8a3e; }
.ok { color: #2b8a3e; font-weight: 700; } .failed { color: #c92a2a; font-weight: 700; }
`;
