import { packageTestConfig } from '../../vitest.shared.ts';

// The whole corpus runs in Chromium and through the Node sample before the comparison.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 400_000 });
