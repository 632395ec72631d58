import { packageTestConfig } from '../../vitest.shared.ts';

// Each test runs the built main (Chromium, a page server) as a process of its own.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 60_000 });
