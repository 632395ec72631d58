import { packageTestConfig } from '../vitest.shared.ts';

// Tests run the benchmark and soak commands as processes against chaos servers on 127.0.0.1.
// Each process may run until HANG_CAP_MS (test-support/run-node.ts: ten times the slowest quiet
// run) before it counts as hung; a test's timeout is above that, so a hang says what it printed.
// A worker per core, not vitest's cores - 1 (one on a 2-core machine): the three long files (the
// benchmarks, the soak, the runtimes) one at a time left a core idle.
export default packageTestConfig(import.meta.url, { testTimeout: 660_000, hookTimeout: 30_000, maxWorkers: '100%' });
