import { packageTestConfig } from '../vitest.shared.ts';

// Tests run the benchmark and soak commands as processes against chaos servers on 127.0.0.1.
// A worker per core, not vitest's cores - 1 (one on a 2-core machine): the test run ends on this
// package, and its three long files (the benchmarks, the soak, the runtimes) one at a time left a core idle.
export default packageTestConfig(import.meta.url, { testTimeout: 120_000, hookTimeout: 30_000, maxWorkers: '100%' });
