// The churn check's workload (docs/churn-check.md) for an MCP client that is connected: list the
// tools, make each step's calls (the calls of a step at once), print one JSON line per outcome,
// exit. Each adapter beside this file connects its client and hands it here.
export const context = JSON.parse(process.env.MCP_CHURN_CONTEXT);
/** The server's URL: the last argument. */
export const url = process.argv.at(-1);

/** Prints the skip line and exits when the client cannot speak the scenario's revision. */
export function skipUnless(revisions, client) {
  if (revisions.includes(context.revision)) return;
  console.log(JSON.stringify({ skip: `${client} does not speak ${context.revision}` }));
  process.exit(0);
}

/**
 * Prints the skip line and exits when the scenario's server is protected (`context.auth`) and the client cannot authenticate.
 *
 * @example
 * skipIfProtected('this client takes no auth provider');
 */
export function skipIfProtected(why) {
  if (!context.auth) return;
  console.log(JSON.stringify({ skip: why }));
  process.exit(0);
}

/** Runs the calls with `callTool(params)` (which applies `context.callTimeoutMs`), then closes the client and exits 0. */
export async function runWorkload(client, callTool) {
  await client.listTools();
  for (const step of context.steps) {
    await new Promise((resolve) => setTimeout(resolve, step.pauseMs ?? 0));
    await Promise.all(step.calls.map(async ({ id, tool, arguments: args }) => {
      try {
        const result = await callTool({ name: tool, arguments: args });
        console.log(JSON.stringify({ id, ok: !result.isError, text: result.content?.[0]?.text }));
      } catch (error) {
        console.log(JSON.stringify({ id, ok: false, error: String(error?.message ?? error) }));
      }
    }));
  }
  await client.close();
  process.exit(0);
}
