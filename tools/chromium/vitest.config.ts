import { packageTestConfig } from '../../vitest.shared.ts';

// The first run unpacks Chromium (a few seconds, a minute at most); every launch is a real browser,
// given a minute before it "did not start": hooks and tests have more time than that.
export default packageTestConfig(import.meta.url, { testTimeout: 90_000, hookTimeout: 90_000 });
