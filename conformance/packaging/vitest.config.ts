import { packageTestConfig } from '../../vitest.shared.ts';

// globalSetup packs the published packages once (pnpm pack into a temporary folder outside the
// workspace) for both test files; the install test spends most of its time in `npm install`.
export default packageTestConfig(import.meta.url, {
  globalSetup: ['./src/pack-setup.ts'],
  testTimeout: 60_000,
  // Above npm-project.ts's 240 s cap on an install, so that its own error (with npm's output) is what fails.
  hookTimeout: 300_000,
});
