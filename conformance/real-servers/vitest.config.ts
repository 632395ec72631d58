import { packageTestConfig } from '../../vitest.shared.ts';

// Each test file starts its real servers once (child processes on 127.0.0.1) and stops them by
// PID. Most of a file's time is spent waiting for those servers, so two files run at once even
// on two cores.
export default packageTestConfig(import.meta.url, { testTimeout: 30_000, hookTimeout: 90_000, maxWorkers: 2, isolate: false });
