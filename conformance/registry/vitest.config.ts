import { packageTestConfig } from '../../vitest.shared.ts';

// globalSetup starts the registry and rehearses the release on it once (most of the run's cost:
// README.md says what it takes); the test files install from it in fresh projects, three at a
// time: they wait on npm, Deno and Chromium more than they compute.
export default packageTestConfig(import.meta.url, {
  globalSetup: ['./src/registry-setup.ts'],
  testTimeout: 60_000,
  hookTimeout: 180_000,
  maxWorkers: 3,
});
