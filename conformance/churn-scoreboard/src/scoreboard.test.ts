import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkLine } from './check-client.ts';
import { CLIENTS } from './clients.ts';
import { runCheckProcess } from './run-check-process.ts';
import { runScoreboard, type Scoreboard } from './scoreboard.ts';

const DOC = fileURLToPath(new URL('../../../docs/churn-check.md', import.meta.url));
const README = fileURLToPath(new URL('../../../README.md', import.meta.url));
const clientFile = (name: string) => readFileSync(new URL(`../clients/${name}`, import.meta.url), 'utf8');
const SESSION_SCENARIOS = ['restart', 'idle-expiry', 'gone-amdahl', 'gone-typescript-sdk', 'gone-python-sdk', 'gone-go-sdk', 'gone-express-400', 'gone-server-everything',
  'gone-typescript-sdk-uninitialized', 'renegotiation-404'];

let board: Scoreboard;
const run = (name: string) => board.runs.find((r) => r.client.name === name)!;

// `mcp-chaos check` on every client, as processes, once for the whole file. A scenario on which a
// client not of ours got a cell other than the committed table's is run again (settleDifferences):
// a race of its own, whichever check it lands on, is recorded as varying and decides no test.
beforeAll(async () => {
  board = await runScoreboard({ committed: readFileSync(DOC, 'utf8') });
  for (const r of board.runs) console.log(checkLine(r));
  for (const line of board.seen) console.log(`run again: ${line}`);
  console.log(board.printed);
});

describe('the churn check scoreboard', () => {
  it('scored every client on every scenario: none failed to start, hung or printed garbage', () => {
    const problems = board.runs.flatMap((r) => r.report.scenarios.flatMap((s) => (s.problem ? [`${r.client.name}, ${s.name}: ${s.problem}`] : [])));
    expect(problems.join(' · ')).toBe(''); // a string, so that the failure message names them
    expect(board.runs.map((r) => r.client.name).sort()).toEqual(CLIENTS.map((c) => c.name).sort());
  });

  it.each(CLIENTS.filter((c) => c.ours).map((c) => c.name))('%s (ours) passes every check, and the check exits 0', (name) => {
    const { report, code, summary } = run(name);
    const failed = report.scenarios.flatMap((s) => s.checks.filter((c) => !c.passed).map((c) => `${s.name}: ${c.name}: ${c.detail}`));
    expect(failed).toEqual([]);
    expect(code).toBe(0);
    expect(summary).toBe(`churn check: ${report.checks.total}/${report.checks.total} checks, ${report.scenarios.filter((s) => s.status !== 'skipped').length}/${report.scenarios.filter((s) => s.status !== 'skipped').length} scenarios${name.startsWith('SDK 1') ? ', 2 skipped' : ''}`);
  });

  it.each(['SDK 1.x', 'SDK 2.x'])('%s (plain) fails the session checks on every session loss, and the check exits 1', (name) => {
    const { report, code } = run(name);
    for (const scenario of SESSION_SCENARIOS) {
      const failed = report.scenarios.find((s) => s.name === scenario)!.checks.filter((c) => !c.passed).map((c) => c.name);
      expect(failed, scenario).toContain('reinitialized');
      expect(failed, scenario).toContain('calls-answered');
    }
    expect(code).toBe(1);
  });

  it.each(CLIENTS.map((c) => c.name))('%s in the credential scenarios: an SDK client authenticates (plain, it fails them as every loss), any other skips saying why', (name) => {
    const client = CLIENTS.find((c) => c.name === name)!;
    for (const scenario of ['auth-first', 'session-first']) {
      const result = run(name).report.scenarios.find((s) => s.name === scenario)!;
      if (!client.file.startsWith('sdk-')) {
        expect(result, scenario).toMatchObject({ status: 'skipped', skipped: expect.stringMatching(/no auth provider|no token to refresh/) });
        continue;
      }
      const failed = result.checks.filter((c) => !c.passed).map((c) => c.name);
      if (client.ours) expect(failed, scenario).toEqual([]);
      else expect(failed, scenario).toEqual(expect.arrayContaining(['reinitialized', 'dead-id-dropped', 'calls-answered']));
    }
  });

  const frameworks = CLIENTS.filter((c) => c.mode === 'engine').map((c) => [c.plain!, c.name] as const);
  it.each(frameworks)('%s (plain) keeps or drops the dead session and never re-initializes; %s re-initializes on every loss and answers', (plain, engine) => {
    for (const scenario of SESSION_SCENARIOS) {
      const failedOf = (name: string) => run(name).report.scenarios.find((s) => s.name === scenario)!.checks.filter((c) => !c.passed).map((c) => c.name);
      expect(failedOf(plain), `${plain}, ${scenario}`).toEqual(expect.arrayContaining(['reinitialized', 'calls-answered']));
      expect(failedOf(engine), `${engine}, ${scenario}`).toEqual([]);
    }
  });

  it('runs each framework at the version conformance/frameworks pins (the versions of docs/frameworks.md)', () => {
    const deps = (path: string) => (JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as { dependencies: Record<string, string> }).dependencies;
    const ours = deps('../package.json');
    const theirs = deps('../../frameworks/package.json');
    const shared = ['@ai-sdk/mcp', '@mastra/mcp', '@mastra/core', '@langchain/mcp-adapters', '@langchain/core', '@langchain/langgraph', '@openai/agents', 'zod'];
    expect(Object.fromEntries(shared.map((name) => [name, ours[name]]))).toEqual(Object.fromEntries(shared.map((name) => [name, theirs[name]])));
  });

  it.each(CLIENTS.filter((c) => c.varies).map((c) => c.name))('%s declares as varying only checks it was scored on (the others of those scenarios are shown as seen, and must repeat)', (name) => {
    const client = CLIENTS.find((c) => c.name === name)!;
    for (const [scenario, checks] of Object.entries(client.varies!)) {
      const result = run(name).report.scenarios.find((s) => s.name === scenario);
      expect(result?.status, scenario).toMatch(/passed|failed/);
      expect(checks.length, scenario).toBeGreaterThan(0);
      expect(result!.checks.map((c) => c.name), scenario).toEqual(expect.arrayContaining([...checks]));
      expect(checks.length, `${scenario}: a scenario whose every check varies says nothing`).toBeLessThan(result!.checks.length);
    }
  });

  it('is the table in docs/churn-check.md, as printed, where a race of a client not of ours showed the committed cell in one of its runs (run `pnpm --filter @mcp-resilience/churn-scoreboard scoreboard` and paste it)', () => {
    expect(readFileSync(DOC, 'utf8')).toContain(`\n\n${board.asCommitted}\n`);
  });

  it("is summed up in the root README: the table's header and its two totals, as printed", () => {
    const lines = board.asCommitted.split('\n');
    const summary = [...lines.slice(0, 2), ...lines.filter((line) => line.startsWith('| **'))].join('\n');
    expect(readFileSync(README, 'utf8')).toContain(`\n\n${summary}\n\n`);
  });
});

describe('the adapters in the docs', () => {
  it.each(['workload.mjs', 'sdk-1x-resilient.mjs', 'python-client.py'])('docs/churn-check.md shows clients/%s as it is', (file) => {
    const text = clientFile(file);
    expect(readFileSync(DOC, 'utf8')).toContain(`\`\`\`${file.endsWith('.py') ? 'python' : 'js'}\n${text}\`\`\``);
  });

  const python = spawnSync('python3', ['--version']).status === 0;
  it.runIf(python)('the Python client is scored like any other (run where python3 is present)', async () => {
    const command = `python3 ${fileURLToPath(new URL('../clients/python-client.py', import.meta.url))}`;
    const { report, summary } = await runCheckProcess(command, ['--scenario', 'gone-python-sdk', '--scenario', 'forbidden-403', '--scenario', 'stateless-2026'], 120_000);
    expect(report.scenarios.map((s) => [s.name, s.status, s.problem])).toEqual([
      ['gone-python-sdk', 'failed', undefined], ['forbidden-403', 'passed', undefined], ['stateless-2026', 'skipped', undefined],
    ]);
    expect(summary).toBe('churn check: 6/9 checks, 1/2 scenarios, 1 skipped');
  });
});
