// What the plain-fetch churn-check clients beside this file share: reading a JSON-RPC answer out of
// a JSON or SSE body, and the workload's loop over the context's steps (docs/churn-check.md).

/**
 * The result of request `id` in a response body (JSON, or an event stream's `data:` lines).
 *
 * @example
 * const result = resultIn(await response.text(), 3); // throws when there is no answer, or an error
 */
export function resultIn(text, id) {
  const messages = text.split('\n').filter((l) => l.startsWith('data:') && l.slice(5).trim()).map((l) => JSON.parse(l.slice(5)));
  const answer = (messages.length ? messages : [JSON.parse(text)]).find((m) => m.id === id);
  if (!answer || answer.error) throw new Error(answer ? answer.error.message : 'no answer');
  return answer.result;
}

/**
 * The workload after the client connected: `tools/list`, then each step's calls at once, one JSON
 * line per outcome on stdout. `rpc(method, params)` sends a request and resolves with its result.
 *
 * @example
 * await runSteps(context, rpc);
 */
export async function runSteps(context, rpc) {
  await rpc('tools/list', {});
  for (const step of context.steps) {
    await new Promise((resolve) => setTimeout(resolve, step.pauseMs ?? 0)); // the scenario's pause, as the contract says
    await Promise.all(step.calls.map(({ id, tool, arguments: args }) => rpc('tools/call', { name: tool, arguments: args }).then(
      (result) => console.log(JSON.stringify({ id, ok: !result.isError, text: result.content[0].text })),
      (error) => console.log(JSON.stringify({ id, ok: false, error: error.message })),
    )));
  }
}
