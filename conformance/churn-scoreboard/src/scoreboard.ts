import { checkClient, type ClientCheck } from './check-client.ts';
import { CLIENTS } from './clients.ts';
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
  readonly runs: readonly ClientCheck[];
  readonly printed: string;
}

/**
 * Runs `mcp-chaos check` on every client of {@link CLIENTS}, three at a time (the frameworks,
 * the slowest, first; their recipes bundled once for the run; a scenario that a client not of
 * ours could not be scored on run once more, by {@link checkClient}), and renders the table and
 * the list of places where a client did worse than the plain client of its line.
 *
 * @example
 * const { printed } = await runScoreboard();
 * process.stdout.write(printed);
 */
export async function runScoreboard(): Promise<Scoreboard> {
  const runs: ClientCheck[] = [];
  const queue = [...CLIENTS].reverse(); // the light SDK clients last, so the run does not end on one slow check alone
  const bundles = await bundleRecipes(CLIENTS);
  try {
    await Promise.all(Array.from({ length: CLIENTS_AT_ONCE }, async () => {
      for (let client = queue.shift(); client; client = queue.shift()) {
        runs.push(await checkClient(client, { env: bundles.env }));
      }
    }));
  } finally {
    bundles.remove();
  }
  const columns: ScoreboardColumn[] = CLIENTS.map((client) => ({ client, report: runs.find((r) => r.client === client)!.report }));
  const worse = worseThanPlain(columns);
  const printed = `${renderScoreboard(columns)}\nWorse than the plain client of its line:\n\n${worse.length ? worse.map((w) => `- ${w}`).join('\n') : '- nowhere'}\n`;
  return { runs, printed };
}
