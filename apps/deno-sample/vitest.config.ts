import { packageTestConfig } from '../../vitest.shared.ts';

// Each test runs the Deno sample (or deno check) as a process of its own.
export default packageTestConfig(import.meta.url, { testTimeout: 120_000, hookTimeout: 60_000 });
