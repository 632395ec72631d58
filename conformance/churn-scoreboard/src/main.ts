// pnpm --filter @mcp-resilience/churn-scoreboard scoreboard: the table of docs/churn-check.md, and each client's summary line on stderr.
import { checkLine } from './check-client.ts';
import { runScoreboard } from './scoreboard.ts';

const { runs, printed } = await runScoreboard();
for (const run of runs) process.stderr.write(`${checkLine(run)}\n`);
process.stdout.write(printed);
