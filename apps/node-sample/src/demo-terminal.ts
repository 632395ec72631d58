// `pnpm demo`: the story in the terminal, against a chaos server in this process.
import { startChaosServer } from '@mcp-resilience/chaos';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { DemoLine } from './demo-stage.ts';
import { DEMO_CHAOS, runDemoStory } from './demo-story.ts';
import { createResilientFetch } from './engine.ts';

const PAD = 11;

/**
 * A line of the story as the terminal shows it: the clients' rows labelled in a column, notes under them.
 *
 * @example
 * terminalLine({ kind: 'row', side: 'plain', text: '✗ ✗ ✗' }); // '  plain      ✗ ✗ ✗'
 */
export function terminalLine(line: DemoLine): string {
  switch (line.kind) {
    case 'title': return line.text;
    case 'act': case 'summary': return `\n${line.text}`;
    case 'part': return `  ${line.text}`;
    case 'row': return `  ${line.side.padEnd(PAD)}${line.text}`;
    case 'note': return `  ${''.padEnd(PAD)}${line.text}`;
  }
}

/** Tells the story on stdout; answers the exit code (0: it went as designed). Stops the server it started. */
export async function runTerminalDemo(): Promise<number> {
  const chaos = await startChaosServer(DEMO_CHAOS);
  const closing: Client[] = [];
  try {
    const outcome = await runDemoStory({
      url: chaos.url,
      apply: (faults) => chaos.applyFaults(faults),
      reset: async () => chaos.reset(),
      state: async () => chaos.state(),
      createResilientFetch,
      say: (line) => console.log(terminalLine(line)),
    }, closing);
    return outcome.asDesigned ? 0 : 1;
  } finally {
    for (const client of closing) await client.close().catch(() => {});
    await chaos.stop();
  }
}
