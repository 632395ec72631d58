// The engine under test, from the runtime package this sample is for: every scenario and the
// demo go through `@mcp-resilience/node`, exactly as an application on Node would.
export { callLongTool, createResilientFetch } from '@mcp-resilience/node';
