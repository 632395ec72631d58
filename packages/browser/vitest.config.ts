import { packageTestConfig } from '../../vitest.shared.ts';

// Tests drive real Chromium against mcp-chaos processes on 127.0.0.1, one file at a time, in one
// worker (a fresh process per file: 19.5 s of CPU, not 11.9): none mocks a module or stubs a global.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 120_000, fileParallelism: false, isolate: false });
