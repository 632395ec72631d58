import { packageTestConfig } from '../../vitest.shared.ts';

// globalSetup starts one mcp-chaos process for the run (stopped by its PID); each scenario takes a
// fresh server of its pool. A framework's file spends most of its time waiting on the server's
// faults (a restart is down for seconds), so two files run at once even on two cores; without
// isolation the modules they share (vitest, the engine) are loaded once per worker. A hook's time is
// above the minute workerd may take to say it is ready (START_CAP_MS, workerd-recipes.ts), so a start that fails says so.
export default packageTestConfig(import.meta.url, {
  isolate: false,
  globalSetup: ['./src/chaos-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 120_000,
  maxWorkers: 2,
});
