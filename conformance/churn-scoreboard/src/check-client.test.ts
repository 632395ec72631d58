import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkClient } from './check-client.ts';

// A real client (the plain SDK 2.x adapter) behind a wrapper that prints garbage the first time it
// is run on each scenario, as a client breaking on a loaded machine does, and is itself after that.
const dir = mkdtempSync(join(tmpdir(), 'churn-flaky-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function flakyClient(name: string): string {
  const markers = mkdtempSync(join(dir, `${name}-`));
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `import { existsSync, writeFileSync } from 'node:fs';
const marker = ${JSON.stringify(markers)} + '/' + process.env.MCP_CHURN_SCENARIO;
if (!existsSync(marker)) {
  writeFileSync(marker, '');
  console.log('Warning: not an outcome');
  process.exit(0);
}
await import(${JSON.stringify(new URL('../clients/sdk-2x.mjs', import.meta.url).href)});
`);
  return `node ${file}`;
}

describe('checkClient', () => {
  it('runs a scenario that a client not of ours could not be scored on once more, scores the second run and says why', async () => {
    const check = await checkClient({ name: 'flaky', file: 'unused' }, { scenarios: ['forbidden-403', 'client-error-400'], command: flakyClient('theirs') });
    expect(check.rerun).toEqual([
      'forbidden-403 (printed a line that is not JSON: "Warning: not an outcome")',
      'client-error-400 (printed a line that is not JSON: "Warning: not an outcome")',
    ]);
    expect(check.report.scenarios.map((s) => [s.name, s.status, s.problem])).toEqual([
      ['forbidden-403', 'passed', undefined],
      ['client-error-400', 'passed', undefined],
    ]);
  });

  it('gives ours no second run: their problem stays in the report', async () => {
    const check = await checkClient({ name: 'flaky + ours', file: 'unused', ours: true }, { scenarios: ['forbidden-403'], command: flakyClient('ours') });
    expect(check.rerun).toEqual([]);
    expect(check.report.scenarios.map((s) => [s.name, s.status, s.problem])).toEqual([
      ['forbidden-403', 'failed', 'printed a line that is not JSON: "Warning: not an outcome"'],
    ]);
    expect(check.code).toBe(1);
  });
});
