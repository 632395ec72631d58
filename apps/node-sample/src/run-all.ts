import { loadScenarios } from './load-scenarios.ts';
import { runScenario, type CreateFetch } from './run-scenario.ts';
import type { NormalizedEvent } from '@mcp-resilience/core';

/** The normalized report every runtime's sample prints; identical reports are the proof. */
export interface Report {
  readonly runtime: string;
  readonly scenarios: readonly { readonly name: string; readonly ok: boolean; readonly trace: readonly NormalizedEvent[]; readonly mismatches?: readonly string[] }[];
  readonly passed: number;
  readonly failed: number;
}

/**
 * Runs every scenario file, one after another, into one report. A file that cannot be mapped
 * is a failed scenario (named by its file), never skipped; mismatches appear only on failures.
 */
export async function runAll(createFetch: CreateFetch, runtime: string, dir?: string): Promise<Report> {
  const scenarios: Report['scenarios'][number][] = [];
  for (const entry of loadScenarios(dir)) {
    if (entry.error) {
      scenarios.push({ name: entry.file, ok: false, trace: [], mismatches: [entry.error.message] });
      continue;
    }
    const { name, ok, trace, mismatches } = await runScenario(entry.scenario, createFetch);
    scenarios.push({ name, ok, trace, ...(ok ? {} : { mismatches }) });
  }
  const passed = scenarios.filter((s) => s.ok).length;
  return { runtime, scenarios, passed, failed: scenarios.length - passed };
}
