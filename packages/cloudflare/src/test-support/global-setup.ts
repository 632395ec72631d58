// Runs in Node before the tests run in workerd: an mcp-chaos process (a pool of fresh servers),
// stopped by PID at the end.
import { startChaosProcess } from '@mcp-resilience/chaos';
import type { TestProject } from 'vitest/node';
import './provided-context.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pool = await startChaosProcess();
  project.provide('chaosControl', pool.control);
  return () => pool.stop();
}
