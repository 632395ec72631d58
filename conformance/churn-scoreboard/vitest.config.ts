import { packageTestConfig } from '../../vitest.shared.ts';

// scoreboard.test.ts runs `mcp-chaos check` on every client once, before the tests that read the
// reports: 13 checks, three at a time, took 309 s on 2 cores at a load of 13 to 23 (the frameworks'
// imports were most of its CPU; bundled once per run, 223 s and 342 s of CPU instead of 442). The hook's cap is for a hang: each check is also killed by its PID
// after 300 s.
export default packageTestConfig(import.meta.url, { testTimeout: 60_000, hookTimeout: 900_000 });
