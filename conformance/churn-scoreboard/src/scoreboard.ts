import { checkClient, type ClientCheck } from './check-client.ts';
import { CLIENTS } from './clients.ts';
import { committedCells, settleDifferences } from './races.ts';
import { bundleRecipes } from './recipe-bundles.ts';
import { renderScoreboard, worseThanPlain, type ScoreboardColumn } from './scoreboard-table.ts';

/**
 * Clients checked at once (each check runs 4 scenarios at once). The checks mostly wait (timeouts,
 * Retry-After, pauses), but the framework adapters spend CPU on each scenario loading their
 * framework (about 1 s unbundled, half that bundled): more at once only shares the 2 cores of CI more thinly.
 */
const CLIENTS_AT_ONCE = 3;

/** The whole scoreboard: every client's run, the table and the findings as printed. */
export interface Scoreboard {
  /** Each client's run; a scenario run again (below) with its runs merged: what varied is `varies`. */
  readonly runs: readonly ClientCheck[];
  /** The table and the findings of `runs`. */
  readonly printed: string;
  /** The same with each scenario run again shown as the run that matched the committed table, if one did. */
  readonly asCommitted: string;
  /** Each scenario run again: what varied over its runs, and whether a run showed the committed cell. */
  readonly seen: readonly string[];
}

/** What {@link runScoreboard} may be given: the committed table (docs/churn-check.md) to settle differences against. */
export interface ScoreboardOptions {
  readonly committed?: string;
}

/** The table of these runs and the list of places where a client did worse than the plain client of its line. */
function printedOf(runs: readonly ClientCheck[]): string {
  const columns: ScoreboardColumn[] = CLIENTS.map((client) => ({ client, report: runs.find((r) => r.client === client)!.report }));
  const worse = worseThanPlain(columns);
  return `${renderScoreboard(columns)}\nWorse than the plain client of its line:\n\n${worse.length ? worse.map((w) => `- ${w}`).join('\n') : '- nowhere'}\n`;
}

/**
 * Runs `mcp-chaos check` on every client of {@link CLIENTS}, three at a time (the frameworks,
 * the slowest, first; their recipes bundled once for the run; a scenario that a client not of
 * ours could not be scored on run once more, by {@link checkClient}), and renders the table and
 * the list of places where a client did worse than the plain client of its line. Given the
 * committed table, a scenario on which a client not of ours got another cell is run again and its
 * runs merged (`settleDifferences`): what varies from run to run is recorded as varying,
 * whichever check it lands on.
 *
 * @example
 * const { printed } = await runScoreboard({ committed: readFileSync('docs/churn-check.md', 'utf8') });
 * process.stdout.write(printed);
 */
export async function runScoreboard(options: ScoreboardOptions = {}): Promise<Scoreboard> {
  const first: ClientCheck[] = [];
  const queue = [...CLIENTS].reverse(); // the light SDK clients last, so the run does not end on one slow check alone
  const bundles = await bundleRecipes(CLIENTS);
  try {
    await Promise.all(Array.from({ length: CLIENTS_AT_ONCE }, async () => {
      for (let client = queue.shift(); client; client = queue.shift()) {
        first.push(await checkClient(client, { env: bundles.env }));
      }
    }));
    const committed = committedCells(options.committed ?? '', CLIENTS.map((c) => c.name));
    const { merged, asCommitted, seen } = await settleDifferences(first, committed, bundles.env);
    return { runs: merged, printed: printedOf(merged), asCommitted: printedOf(asCommitted), seen };
  } finally {
    bundles.remove();
  }
}
