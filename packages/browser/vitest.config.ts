import { packageTestConfig } from '../../vitest.shared.ts';

// Tests drive real Chromium against mcp-chaos processes on 127.0.0.1, one file at a time.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false });
