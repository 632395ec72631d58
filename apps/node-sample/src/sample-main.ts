import { startChaosProcess, type ChaosProcess } from '@mcp-resilience/chaos';
import { renderReport, summaryLine, type CorpusReport, type RuntimeName, type ScenarioSource } from '@mcp-resilience/scenarios';
import { loadCorpus } from './load-corpus.ts';

/** What a sample's Node entry was asked: `[scenarios-dir] [--chaos CONTROL_URL] [--overhead [--quick]]`. */
export interface SampleArgs {
  readonly chaos?: string | undefined;
  readonly overhead?: boolean | undefined;
  readonly quick?: boolean | undefined;
  /** The scenarios directory (default `conformance/scenarios`). */
  readonly dir?: string | undefined;
}

/** How one runtime runs the corpus and the overhead measurement, driven from Node. */
export interface SampleRuntime {
  /** Its name: the report's `runtime`, and the prefix of a failure's line on stderr. */
  readonly runtime: RuntimeName;
  /** The corpus in the runtime, against the chaos pool at `control`: the canonical report. */
  readonly runCorpus: (sources: readonly ScenarioSource[], control: string) => Promise<CorpusReport>;
  /** The shared overhead measurement in the runtime, printed as JSON. */
  readonly measureOverhead: (control: string, size: 'quick' | 'full') => Promise<unknown>;
  /** Stops what the runtime started (a Worker, a folder): after the run, or on SIGINT/SIGTERM. */
  readonly cleanUp?: () => Promise<void>;
}

/**
 * The Node entry every sample shares: the corpus (or, with `overhead`, the overhead measurement)
 * in `runtime`, against the `mcp-chaos` whose control API `args.chaos` names, or one started here
 * and stopped by its PID at the end or on a signal. The report goes to stdout and the summary
 * line to stderr; the exit code is 1 on any failed scenario, an empty corpus or an error (one
 * line on stderr, prefixed with the runtime's name).
 *
 * @example
 * await sampleMain({ runtime: 'node', runCorpus: (sources, control) => runCorpus(sources, nodeHost(control)), measureOverhead }, values);
 */
export async function sampleMain(runtime: SampleRuntime, args: SampleArgs): Promise<void> {
  let owned: ChaosProcess | undefined;
  const cleanUp = async () => {
    await runtime.cleanUp?.();
    await owned?.stop();
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanUp().finally(() => process.exit(1)));
  try {
    const sources = args.overhead ? [] : loadCorpus(args.dir);
    owned = args.chaos === undefined ? await startChaosProcess() : undefined;
    const control = args.chaos ?? owned!.control;
    if (args.overhead) {
      process.stdout.write(`${JSON.stringify(await runtime.measureOverhead(control, args.quick ? 'quick' : 'full'))}\n`);
    } else {
      const report = await runtime.runCorpus(sources, control);
      process.stdout.write(renderReport(report));
      process.stderr.write(`${summaryLine(report)}\n`);
      if (report.failed > 0 || report.scenarios.length === 0) process.exitCode = 1;
    }
  } catch (error) {
    process.stderr.write(`${runtime.runtime}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  } finally {
    await cleanUp();
  }
}
