import { packageTestConfig } from '../../vitest.shared.ts';

// The first run unpacks Chromium (a few seconds); every launch is a real browser.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 60_000 });
