// The memory benchmark in a process of its own (node --expose-gc --no-warnings), so that no
// other benchmark's garbage is counted: `memory-main.js <resilient|plain> <calls> <warmup>`
// prints its result as one JSON line. Process warnings are counted by name, not printed: the
// SDK hands every fetch the transport's one AbortSignal, and undici's listeners on it pile up
// until a GC (MaxListenersExceededWarning, with or without the engine).
import { measureMemory } from './memory.ts';

const warnings: Record<string, number> = {};
process.on('warning', (warning) => void (warnings[warning.name] = (warnings[warning.name] ?? 0) + 1));

const [subject = 'resilient', calls = '1000', warmup = '500'] = process.argv.slice(2);
if (subject !== 'resilient' && subject !== 'plain') throw new Error('memory-main: resilient or plain');
const result = await measureMemory(subject, Number(calls), Number(warmup));
process.stdout.write(`${JSON.stringify({ ...result, warnings })}\n`);
