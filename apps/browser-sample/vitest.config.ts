import { packageTestConfig } from '../../vitest.shared.ts';

// The built main runs the whole corpus in Chromium, then the Node sample's, before the comparison.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 300_000 });
