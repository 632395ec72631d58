import fc from 'fast-check';

/*
 * A property's time limit as a hang guard, not a verdict on the machine's speed: set far above
 * (at least 10×) the property's time on a quiet machine, so that no loaded run comes near it. A
 * property that reaches it fails, never passes on the runs it got to, and says that it hung.
 */

/** How long a property takes on a quiet machine, and the limit that guards it. */
export interface PropertyTime {
  /** The longest its runs took on a quiet machine, over several seeds (vitest's duration). */
  readonly quietMs: number;
  /** The hang guard: at least 10× `quietMs`. */
  readonly limitMs: number;
}

/**
 * fast-check settings that stop a property at `time.limitMs` and fail it: a counterexample found
 * by then is reported as fast-check reports it (with the suite's replay command); a property
 * stopped before it found one fails as "hung".
 *
 * @example
 * await fc.assert(property, { numRuns: 25, ...hangGuard({ quietMs: 8_000, limitMs: 120_000 }) });
 */
export function hangGuard<Ts>(time: PropertyTime): Pick<fc.Parameters<Ts>, 'interruptAfterTimeLimit' | 'markInterruptAsFailure' | 'reporter'> {
  if (time.limitMs < 10 * time.quietMs) throw new Error(`a hang guard of ${time.limitMs} ms is not 10× the quiet time (${time.quietMs} ms)`);
  return {
    interruptAfterTimeLimit: time.limitMs,
    markInterruptAsFailure: true,
    reporter(run) {
      if (!run.failed) return;
      // The suite's reporter (vitest.fast-check.ts: fast-check's report and a replay command), else fast-check's own.
      const suite = fc.readConfigureGlobal().reporter;
      try {
        suite?.(run as fc.RunDetails<unknown>);
        throw new Error(fc.defaultReportMessage(run));
      } catch (error) {
        if (!run.interrupted || run.counterexamplePath !== null) throw error;
        const message = `hung: the property ran ${run.numRuns} run(s) in ${time.limitMs / 1000} s, its hang guard (on a quiet machine all of them take ${time.quietMs / 1000} s)`;
        throw new Error(`${message}\n\n${(error as Error).message}`, { cause: error });
      }
    },
  };
}
