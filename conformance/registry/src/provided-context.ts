// What globalSetup hands the test files through provide/inject.
import type { Release } from './release-rehearsal.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The registry the release was rehearsed on: `http://127.0.0.1:PORT/`, stopped after the run. */
    readonly registry: string;
    /** Where it keeps what was published to it. */
    readonly storage: string;
    /** The copy of the repository the release ran in. */
    readonly releasedCopy: string;
    /** Every published package, with its version before and after the release. */
    readonly released: readonly Release[];
    /** What the workflow's repository step (scripts/set-repository-url.mjs) printed. */
    readonly repositoryOutput: string;
    readonly versionOutput: string;
    /** The control API of the run's mcp-chaos process, for pool servers. */
    readonly chaosControl: string;
    readonly publishOutput: string;
  }
}
