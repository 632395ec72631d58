// The Deno tests' mcp-chaos helper (deno test, leak sanitizers on): --allow-net=127.0.0.1 --allow-run=node
import { match, ok as assert } from 'node:assert/strict';
import { startChaos } from './chaos-process.ts';

Deno.test('startChaos resolves once mcp-chaos listens, and stops it', async () => {
  const chaos = await startChaos();
  try {
    assert((await (await fetch(`${chaos.control}/state`)).json()).faults);
  } finally {
    await chaos.stop();
  }
});

Deno.test('startChaos of an mcp-chaos that exits first fails naming the command and showing what it printed', async () => {
  const error = await startChaos(['--dialect', 'cobol']).then(() => undefined, (e: unknown) => e as Error);
  match(error!.message, /^mcp-chaos \(node .*mcp-chaos\.js --host 127\.0\.0\.1 --port 0 --dialect cobol\) did not start: exited \(2\) before it listened\nstdout: \(nothing\)\nstderr:\nmcp-chaos: --dialect must be one of /);
});
