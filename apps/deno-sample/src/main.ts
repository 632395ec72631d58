// Runs the conformance scenarios through @mcp-resilience/deno with the shared runner against the
// pool of an mcp-chaos process, prints the canonical report on stdout and a one-line summary on
// stderr; exits 1 on any mismatch, unmappable file or empty corpus, 2 on bad arguments.
// Usage: deno run --allow-net=127.0.0.1 --allow-read=<scenarios-dir> src/main.ts --chaos CONTROL_URL [scenarios-dir]
//   (default: conformance/scenarios; scripts/run.mjs runs it so, and starts mcp-chaos when not given one)
import { renderReport, runCorpus, summaryLine } from '@mcp-resilience/scenarios';
import { denoHost } from './deno-host.ts';
import { loadCorpus } from './load-corpus.ts';

const USAGE = 'usage: main.ts --chaos CONTROL_URL [scenarios-dir]';

/** `--chaos URL` (or `--chaos=URL`) and at most one directory; undefined when they are not that. */
function parseArgs(args: readonly string[]): { control: string; dir?: string } | undefined {
  let control: string | undefined;
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--chaos') control = args[++i];
    else if (arg.startsWith('--chaos=')) control = arg.slice('--chaos='.length);
    else if (arg.startsWith('-')) return undefined;
    else positionals.push(arg);
  }
  if (control === undefined || !URL.canParse(control) || positionals.length > 1) return undefined;
  return { control, ...(positionals[0] === undefined ? {} : { dir: positionals[0] }) };
}

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
const report = await runCorpus(await loadCorpus(args.dir), denoHost(args.control));
await writeOut(renderReport(report));
console.error(summaryLine(report));
if (report.failed > 0 || report.scenarios.length === 0) Deno.exitCode = 1;
