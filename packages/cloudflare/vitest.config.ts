import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineProject } from 'vitest/config';
import { packageTestConfig } from '../../vitest.shared.ts';

// Two projects, one result file. `workerd`: the tests run inside workerd (no nodejs_compat),
// against mcp-chaos processes the Node side starts in globalSetup and stops by PID, their
// addresses passed through provide/inject. `node` (*.node.test.ts): Workers bundled as wrangler
// bundles them and run by Miniflare, where code generation is refused (the pool allows it).
export default packageTestConfig(import.meta.url, {
  projects: [
    defineProject({
      plugins: [cloudflareTest({
        main: './src/test-support/worker.ts',
        miniflare: {
          compatibilityDate: '2026-04-20',
          durableObjects: {
            MCP_SESSIONS: { className: 'McpSessionStore', useSQLite: true },
            MCP_AGENT: { className: 'McpAgent', useSQLite: true },
            LEGACY_SESSIONS: { className: 'KeyValueSessionStore', useSQLite: false },
          },
        },
      })],
      test: {
        name: 'workerd',
        include: ['src/**/*.test.ts'],
        exclude: ['src/**/*.node.test.ts'],
        globalSetup: ['./src/test-support/global-setup.ts'],
        // The first Worker request loads the Worker's modules through vite's module runner: slow on
        // a loaded machine (the whole suite runs at once), never a hang of the engine.
        testTimeout: 120_000,
        hookTimeout: 60_000,
      },
    }),
    defineProject({
      // Hooks start workerd (Miniflare), given a minute before it "did not start": they have more.
      test: { name: 'node', include: ['src/**/*.node.test.ts'], environment: 'node', testTimeout: 60_000, hookTimeout: 90_000 },
    }),
  ],
});
