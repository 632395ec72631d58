import { packageTestConfig } from '../../vitest.shared.ts';

// Each file starts its authorization server and MCP servers in-process on 127.0.0.1 (workerd, for
// the Workers file, as a child process) and closes them after its tests.
export default packageTestConfig(import.meta.url, { testTimeout: 30_000, hookTimeout: 90_000, maxWorkers: 2 });
