import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { runFramework } from './framework-run.ts';
import { FRAMEWORKS } from './frameworks.ts';
import { pageTable, readPage } from './page.ts';
import { renderFrameworkTable, renderSummaryRow, type FrameworkRun } from './table.ts';

/** Where each run writes the tables it computed; `pnpm --filter @mcp-resilience/frameworks tables` pastes them into the page. */
export const REPORTS = fileURLToPath(new URL('../reports/', import.meta.url));

/**
 * The tests of one framework: its recipe from docs/frameworks.md run plain and with the engine
 * through every scenario, what the engine must achieve, and the page's table and summary row
 * equal to the run's figures.
 *
 * @example
 * describeFramework('ai-sdk'); // the whole of ai-sdk.test.ts
 * const run = describeFramework('cloudflare-agents'); // run() in a test of the file's own
 */
export function describeFramework(name: string): () => FrameworkRun {
  const framework = FRAMEWORKS.find((f) => f.name === name);
  if (!framework) throw new Error(`no framework named ${name}`);
  let run: FrameworkRun | undefined;
  let table = '';
  let summary = '';

  beforeAll(async () => {
    run = await runFramework(inject('chaosControl'), framework);
    table = renderFrameworkTable(run);
    summary = renderSummaryRow(run);
    mkdirSync(REPORTS, { recursive: true });
    writeFileSync(`${REPORTS}${name}.md`, table);
    writeFileSync(`${REPORTS}${name}.summary.md`, `${summary}\n`);
  }, 300_000); // a cap, not a wait: the Cloudflare file (esbuild, workerd, six scenarios) took 74 s on 2 cores at load 37

  describe(`${framework.title}: the recipe of docs/frameworks.md`, () => {
    it('with the engine, answers every call after an eviction on one new session, and after a short restart', () => {
      for (const { scenario, engine } of run!.rows) {
        expect({ scenario: scenario.name, answered: engine.answered, initializes: engine.initializes, errors: engine.errors })
          .toEqual({ scenario: scenario.name, answered: scenario.calls, initializes: 1, errors: [] });
      }
    });

    it('plain, loses the calls after the session is gone, each with an error of its own', () => {
      for (const { scenario, plain } of run!.rows) {
        expect(plain.answered, scenario.name).toBeLessThan(scenario.calls);
        expect(plain.errors.length, scenario.name).toBeGreaterThan(0);
      }
    });

    it("is the page's table and summary row", () => {
      const page = readPage();
      const hint = `docs/frameworks.md: run \`pnpm --filter @mcp-resilience/frameworks tables\` (it pastes reports/${name}.md)`;
      expect(pageTable(page, name), hint).toBe(table);
      expect(page, hint).toContain(`\n${summary}\n`);
    });
  });
  return () => run!;
}
