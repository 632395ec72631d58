// One Node line's overhead measurement, in a process of that line's Node (node-lines-overhead.ts
// starts it with each binary): the plain SDK client against the same client with
// createResilientFetch(), on a server of the pool of the mcp-chaos at CONTROL_URL, this process's
// CPU time per call. Prints { node, sequential, concurrent } as JSON on stdout; exits 1 on a failure.
// Usage: node overhead-line-main.js --chaos CONTROL_URL --format sse|json --size '{"warmupCalls":…}'
import { parseArgs } from 'node:util';
import type { AnswerFormat, OverheadSize } from '@mcp-resilience/scenarios';
import { measureOverheadAgainst } from './overhead.ts';

const { values } = parseArgs({ options: { chaos: { type: 'string' }, format: { type: 'string' }, size: { type: 'string' } }, strict: true });
try {
  if (!values.chaos || (values.format !== 'sse' && values.format !== 'json') || !values.size) {
    throw new Error('usage: overhead-line-main.js --chaos CONTROL_URL --format sse|json --size JSON');
  }
  const result = await measureOverheadAgainst(values.chaos, JSON.parse(values.size) as OverheadSize, values.format satisfies AnswerFormat);
  process.stdout.write(`${JSON.stringify({ node: process.version, ...result })}\n`);
} catch (error) {
  process.stderr.write(`overhead on Node ${process.version}: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
}
