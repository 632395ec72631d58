import type { Outcome, Scenario } from './scenarios.ts';

/** One framework's run: each scenario's outcome, plain and with the engine. */
export interface FrameworkRun {
  readonly title: string;
  /** `name@version` of each package the recipe uses, as installed. */
  readonly packages: readonly string[];
  readonly rows: readonly { readonly scenario: Scenario; readonly plain: Outcome; readonly engine: Outcome }[];
  /** What the framework's own checks found where it ran (not in the table). */
  readonly notes: Record<string, string | undefined>;
}

function cell(outcome: Outcome): string {
  const inits = `${outcome.initializes} \`initialize\`${outcome.initializes === 1 ? '' : 's'}`;
  return `${outcome.answered} of ${outcome.calls} answered, ${inits}`;
}

function errorLines(run: FrameworkRun): string[] {
  return run.rows.flatMap(({ scenario, plain, engine }) => [
    ...plain.errors.map((e) => `- plain, ${scenario.name}: \`${e.replaceAll('`', "'")}\``),
    ...engine.errors.map((e) => `- with the engine, ${scenario.name}: \`${e.replaceAll('`', "'")}\``),
  ]);
}

/**
 * A framework's table for the page: each scenario, plain and with the engine (answered calls,
 * `initialize`s on the wire after the fault), and under it the errors the calls failed with.
 *
 * @example
 * writeFileSync('reports/ai-sdk.md', renderFrameworkTable(run));
 */
export function renderFrameworkTable(run: FrameworkRun): string {
  const errors = errorLines(run);
  return [
    `| ${run.packages.map((p) => `\`${p}\``).join(', ')} | plain | with the engine |`,
    '|---|---|---|',
    ...run.rows.map(({ scenario, plain, engine }) => `| ${scenario.label} | ${cell(plain)} | ${cell(engine)} |`),
    '',
    ...(errors.length ? ['What the failed calls threw:', '', ...errors] : ['No call failed.']),
    '',
  ].join('\n');
}

/**
 * The framework's row of the page's summary table: answered calls per scenario, plain → with the engine.
 *
 * @example
 * renderSummaryRow(run); // '| Vercel AI SDK | `@ai-sdk/mcp@2.0.99` | 0 → 3 of 3 | … |'
 */
export function renderSummaryRow(run: FrameworkRun): string {
  const cells = run.rows.map(({ plain, engine }) => `${plain.answered} → ${engine.answered} of ${plain.calls}`);
  return `| ${run.title} | ${run.packages.map((p) => `\`${p}\``).join(', ')} | ${cells.join(' | ')} |`;
}
