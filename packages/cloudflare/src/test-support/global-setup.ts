// Runs in Node before the tests run in workerd: an mcp-chaos process (a pool of fresh servers)
// and, for the validator tests, a second one in front of a small official SDK server whose tools
// declare an output schema. Every one of them is stopped at the end (the processes by PID).
import { startChaosProcess } from '@mcp-resilience/chaos';
import type { TestProject } from 'vitest/node';
import { startSchemaServer } from './schema-server.ts';
import './provided-context.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const pool = await startChaosProcess();
  const upstream = await startSchemaServer();
  const proxied = await startChaosProcess(['--upstream', upstream.url]).catch(async (error: unknown) => {
    await Promise.all([pool.stop(), upstream.stop()]);
    throw error;
  });
  project.provide('chaosControl', pool.control);
  project.provide('schemaUrl', proxied.url);
  project.provide('schemaControl', proxied.control);
  return async () => {
    await Promise.all([proxied.stop(), pool.stop()]);
    await upstream.stop();
  };
}
