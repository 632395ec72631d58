// The memory benchmark in a process of its own (node --expose-gc --no-warnings), so that no
// other benchmark's garbage is counted: `memory-main.js <resilient|plain> <calls> <warmup>`
// prints its result as one JSON line, with the process warnings counted by name;
// `memory-main.js clients <clients> <warmup> [max]`: many clients opened and let go on one fetch (bound on lineages: `max`).
import { measureLineageMemory } from './lineage-memory.ts';
import { measureMemory } from './memory.ts';
import { countProcessWarnings } from './process-warnings.ts';

const warnings = countProcessWarnings();

const [subject = 'resilient', calls = '1000', warmup = '500', max] = process.argv.slice(2);
if (subject !== 'resilient' && subject !== 'plain' && subject !== 'clients') throw new Error('memory-main: resilient, plain or clients');
const result = subject === 'clients'
  ? await measureLineageMemory(Number(calls), Number(warmup), max === undefined ? undefined : Number(max))
  : await measureMemory(subject, Number(calls), Number(warmup));
process.stdout.write(`${JSON.stringify({ ...result, warnings })}\n`);
