// One mcp-chaos process for the whole run, on 127.0.0.1, stopped by its PID when the run ends;
// every scenario takes a fresh server of its pool (POST {control}/servers).
import { startChaosProcess } from '@mcp-resilience/chaos';
import type { TestProject } from 'vitest/node';
import './provided-context.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const chaos = await startChaosProcess();
  project.provide('chaosControl', chaos.control);
  return () => chaos.stop();
}
