// pnpm --filter @mcp-resilience/churn-scoreboard scoreboard: the table of docs/churn-check.md, and each client's summary line on stderr.
import { runScoreboard } from './scoreboard.ts';

const { runs, printed } = await runScoreboard();
for (const run of runs) process.stderr.write(`${run.client.name}: ${run.summary} (${run.seconds.toFixed(1)} s)\n`);
process.stdout.write(printed);
