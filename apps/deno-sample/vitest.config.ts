import { packageTestConfig } from '../../vitest.shared.ts';

// Each test runs the Deno sample (or deno check) as a process of its own, stopped after 150 s at
// most (120 s for deno check): a test's time is above that, so that the run's own "hung" is what fails.
// The hook starts mcp-chaos, given a minute (START_CAP_MS) and the time of its own above that.
export default packageTestConfig(import.meta.url, { testTimeout: 180_000, hookTimeout: 90_000 });
