import { packageTestConfig } from '../../vitest.shared.ts';

// The first run fetches one Node line through npm (a few seconds; the download is capped at five
// minutes), later runs find it in node_modules/.cache: tests have more time than the caps.
export default packageTestConfig(import.meta.url, { testTimeout: 480_000 });
