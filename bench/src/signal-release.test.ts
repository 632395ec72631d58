import { fileURLToPath } from 'node:url';
import { nodeBinary } from '@mcp-resilience/node-lines';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChaosProcess, type ChaosProcess } from './chaos-process.ts';
import { runNode } from './test-support/run-node.ts';

const SCRIPT = fileURLToPath(new URL('../dist/signal-release-main.js', import.meta.url));
let chaos: ChaosProcess;
beforeAll(async () => (chaos = await startChaosProcess(['--json-responses'])));
afterAll(() => chaos.stop());

async function run(executable?: string) {
  const ran = await runNode(SCRIPT, [chaos.url], [], executable);
  expect(ran.code, ran.output).toBe(0);
  return JSON.parse(ran.stdout) as { node: string; calls: boolean[]; aborted: string };
}

// Node's fetch puts a listener on each request's signal. Node 20 to 24 keep it until the request is
// collected, so a call goes out on a signal of its own (the SDK gives all its requests one); Node 26
// drops it once the body ends, which the engine sees, and then sends each call on the SDK's signal.
describe("a call's requests and the caller's signal, in each Node's own fetch", () => {
  it('on this Node (20): every call on a signal of its own; the caller\'s abort still ends a call', async () => {
    const { calls, aborted } = await run();
    expect(calls).toEqual(Array(20).fill(false));
    expect(aborted).toMatch(/the caller gave up|aborted/i);
  }, 120_000);

  it("on Node 26: from the first call on, the SDK's signal itself, as without the engine; the caller's abort still ends a call", async () => {
    const { node, calls, aborted } = await run(await nodeBinary(26));
    expect(node).toMatch(/^v26\./);
    expect(calls).toEqual(Array(20).fill(true));
    expect(aborted).toMatch(/the caller gave up|aborted/i);
  }, 300_000);
});
