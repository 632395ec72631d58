import { packageTestConfig } from '../../vitest.shared.ts';

// Each test file starts its own servers on 127.0.0.1 and stops them by PID or handle. No file
// mocks a module, stubs a global or fakes timers, so the files share one module graph per worker
// instead of loading it afresh for each (21 s of CPU instead of 41; 205 of 205 in three runs,
// two under CPU load). Hooks start processes (server-everything, Chromium) that may take a minute
// before they "did not start" (START_CAP_MS): a hook's cap is above that; so is a test's that starts one.
// Two workers: the files mostly wait on the processes and servers they start (half a core alone),
// and on 2 cores vitest's default is one worker, which runs the files one after another.
export default packageTestConfig(import.meta.url, { testTimeout: 20_000, hookTimeout: 90_000, isolate: false, maxWorkers: 2 });
