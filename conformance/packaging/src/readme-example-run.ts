// The root README's application example run as a reader runs it, in an npm project that has the
// packages installed (from the tarballs here, from a registry in conformance/registry): the
// program written to app.mjs, `mcp-chaos` started from the project's own chaos package, a line
// typed, the README's `curl` fault applied, the lines the README shows awaited, the next line typed.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runExample } from './example-process.ts';
import type { ReadmeExample } from './readme-example.ts';

/** What a run of the example shows: its output, and the chaos server's view of it. */
export interface ExampleOutcome {
  /** What the program printed, line by line. */
  readonly stdout: readonly string[];
  readonly stderr: readonly string[];
  readonly exitCode: number | null;
  /** The chaos server's answer to the fault, and its wire log: `initialize`s and `tools/call` statuses. */
  readonly faultAnswer: unknown;
  readonly initializes: number;
  readonly toolCalls: readonly number[];
}

export interface ExampleRun {
  readonly observed: ExampleOutcome;
  /** What the README says: its lines, the fault applied to the one session, one re-initialization, both calls answered. */
  readonly expected: ExampleOutcome;
}

/** A chaos server the caller runs: its MCP endpoint and its control API. */
export interface ChaosServer {
  readonly url: string;
  readonly control: string;
}

/**
 * Runs `example` in the npm project at `dir` against `server`, or, without one, against an
 * `mcp-chaos` process started from the project's own `@mcp-resilience/chaos` and stopped by its PID.
 *
 * @example
 * const { observed, expected } = await runReadmeExample(project.dir, readmeExample(readme));
 * expect(observed).toEqual(expected);
 */
export async function runReadmeExample(dir: string, example: ReadmeExample, server?: ChaosServer): Promise<ExampleRun> {
  writeFileSync(join(dir, 'app.mjs'), example.program);
  let chaos: ChaosServer & { stop?(): Promise<void> } | undefined = server;
  if (chaos === undefined) {
    const chaosEntry = createRequire(join(dir, 'package.json')).resolve('@mcp-resilience/chaos');
    const { startChaosProcess } = (await import(pathToFileURL(chaosEntry).href)) as typeof import('@mcp-resilience/chaos');
    chaos = await startChaosProcess();
  }
  const app = runExample(dir, 'app.mjs', [chaos.url]);
  try {
    // The reader types each line the README shows echoed on stdout, and sends the fault after the
    // first answer; before typing the next line they wait, as the README says, for what it prints
    // before that answer.
    const [first, second] = example.printed.flatMap((p, at) => (p.stream === 'stdout' ? [at] : []));
    if (first === undefined || second === undefined) throw new Error('the README shows fewer than two answers');
    const countBefore = (at: number, stream: 'stdout' | 'stderr') => example.printed.slice(0, at).filter((p) => p.stream === stream).length;
    app.type(example.printed[first]!.line);
    await app.waitForLines('stdout', 1);
    const applied = await fetch(`${chaos.control}/faults`, { method: 'POST', body: JSON.stringify(example.fault) });
    const faultAnswer: unknown = await applied.json();
    await app.waitForLines('stderr', countBefore(second, 'stderr'));
    app.type(example.printed[second]!.line);
    await app.waitForLines('stdout', 2);
    const exitCode = await app.end();
    const of = (stream: 'stdout' | 'stderr') => example.printed.filter((p) => p.stream === stream).map((p) => p.line);
    const { log } = (await (await fetch(`${chaos.control}/state`)).json()) as { log: { rpcMethod?: string; status: number }[] };
    return {
      observed: {
        stdout: app.stdout, stderr: app.stderr, exitCode, faultAnswer,
        initializes: log.filter((entry) => entry.rpcMethod === 'initialize').length,
        toolCalls: log.filter((entry) => entry.rpcMethod === 'tools/call').map((entry) => entry.status),
      },
      expected: { stdout: of('stdout'), stderr: of('stderr'), exitCode: 0, faultAnswer: { applied: 1 }, initializes: 2, toolCalls: [200, 200] },
    };
  } finally {
    app.stop();
    if (server === undefined) await chaos.stop?.();
  }
}
