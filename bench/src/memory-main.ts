// The memory benchmark in a process of its own (node --expose-gc), so that no other
// benchmark's garbage is counted: `memory-main.js <resilient|plain> <calls> <warmup>` prints
// its result as one JSON line.
import { measureMemory } from './memory.ts';

const [subject = 'resilient', calls = '1000', warmup = '500'] = process.argv.slice(2);
if (subject !== 'resilient' && subject !== 'plain') throw new Error('memory-main: resilient or plain');
const result = await measureMemory(subject, Number(calls), Number(warmup));
process.stdout.write(`${JSON.stringify(result)}\n`);
