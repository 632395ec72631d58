// `pnpm demo`: a plain official SDK client and a resilient one (the same SDK, its transport
// given createResilientFetch) through the same churn on one chaos server, narrated in the
// terminal. `pnpm demo --web`: the same story in a page, with mcp-chaos's live view beside it.
const args = process.argv.slice(2);
if (args.some((a) => a !== '--web')) {
  console.error('usage: pnpm demo [--web]   (--web: the story in a page, with the live view of the chaos server beside it)');
  process.exitCode = 2;
} else if (args.includes('--web')) {
  process.exitCode = await (await import('./demo-web.ts')).runWebDemo();
} else {
  process.exitCode = await (await import('./demo-terminal.ts')).runTerminalDemo();
}
