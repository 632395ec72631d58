// Packs every published package once for the whole run, into a temporary folder outside the
// workspace (removed at the end), with the script a user runs as `pnpm tarballs`.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packPublished } from '../../../scripts/pack-published.mjs';
import './provided-context.ts';

export default function setup(project: TestProject): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-resilience-packed-'));
  try {
    project.provide('packed', packPublished(folder));
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
  return () => rmSync(folder, { recursive: true, force: true });
}
