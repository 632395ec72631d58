// Runs the conformance scenarios through @mcp-resilience/deno with the shared runner against the
// pool of an mcp-chaos process, prints the canonical report on stdout and a one-line summary on
// stderr; exits 1 on any mismatch, unmappable file or empty corpus, 2 on bad arguments.
// With --overhead, measures instead what the engine costs in Deno (the shared measurement: plain
// SDK client vs the same client with createResilientFetch(), on SSE and on JSON answers, CPU from
// process.cpuUsage() of node:process, which needs no permission) and prints it as JSON; exits 1
// when a call failed.
// Usage: deno run --allow-net=127.0.0.1 --allow-read=<scenarios-dir> src/main.ts --chaos CONTROL_URL [scenarios-dir]
//        deno run --allow-net=127.0.0.1 src/main.ts --chaos CONTROL_URL --overhead [--quick]
//   (default: conformance/scenarios; scripts/run.mjs runs it so, and starts mcp-chaos when not given one)
import process from 'node:process';
import { measureRuntimeOverhead, renderReport, runCorpus, RUNTIME_OVERHEAD_SIZES, summaryLine, type CpuClock } from '@mcp-resilience/scenarios';
import { denoHost } from './deno-host.ts';
import { loadCorpus } from './load-corpus.ts';

const USAGE = 'usage: main.ts --chaos CONTROL_URL [scenarios-dir] | main.ts --chaos CONTROL_URL --overhead [--quick]';

interface Args {
  readonly control: string;
  readonly dir?: string;
  /** `--overhead [--quick]`: measure the engine's overhead instead of running the corpus. */
  readonly overhead?: 'quick' | 'full';
}

/** `--chaos URL` (or `--chaos=URL`) and at most one directory, or `--overhead [--quick]`; undefined when they are not that. */
function parseArgs(args: readonly string[]): Args | undefined {
  let control: string | undefined;
  let overhead = false;
  let quick = false;
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--chaos') control = args[++i];
    else if (arg.startsWith('--chaos=')) control = arg.slice('--chaos='.length);
    else if (arg === '--overhead') overhead = true;
    else if (arg === '--quick') quick = true;
    else if (arg.startsWith('-')) return undefined;
    else positionals.push(arg);
  }
  if (control === undefined || !URL.canParse(control) || positionals.length > (overhead ? 0 : 1) || (quick && !overhead)) return undefined;
  if (overhead) return { control, overhead: quick ? 'quick' : 'full' };
  return { control, ...(positionals[0] === undefined ? {} : { dir: positionals[0] }) };
}

const DENO_CPU: CpuClock = {
  source: 'process.cpuUsage() of node:process in Deno',
  readMicros: () => {
    const { user, system } = process.cpuUsage();
    return user + system;
  },
};

/** All of `text` to stdout (a pipe may take less than all at once). */
async function writeOut(text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let written = 0; written < bytes.length;) written += await Deno.stdout.write(bytes.subarray(written));
}

const args = parseArgs(Deno.args);
if (!args) {
  console.error(USAGE);
  Deno.exit(2);
}
if (args.overhead) {
  try {
    await writeOut(`${JSON.stringify(await measureRuntimeOverhead(denoHost(args.control), RUNTIME_OVERHEAD_SIZES[args.overhead], { cpu: DENO_CPU, version: `Deno ${Deno.version.deno}` }))}\n`);
  } catch (error) {
    console.error(`deno: ${error instanceof Error ? error.message : String(error)}`);
    Deno.exit(1);
  }
} else {
  const report = await runCorpus(await loadCorpus(args.dir), denoHost(args.control));
  await writeOut(renderReport(report));
  console.error(summaryLine(report));
  if (report.failed > 0 || report.scenarios.length === 0) Deno.exitCode = 1;
}
