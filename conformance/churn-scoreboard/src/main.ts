// pnpm --filter @mcp-resilience/churn-scoreboard scoreboard: the table of docs/churn-check.md, and each client's summary line on stderr
// (a scenario whose cell differs from the committed table is run again: what varies is shown varying).
import { readFileSync } from 'node:fs';
import { checkLine } from './check-client.ts';
import { runScoreboard } from './scoreboard.ts';

const { runs, printed, seen } = await runScoreboard({ committed: readFileSync(new URL('../../../docs/churn-check.md', import.meta.url), 'utf8') });
for (const run of runs) process.stderr.write(`${checkLine(run)}\n`);
for (const line of seen) process.stderr.write(`run again: ${line}\n`);
process.stdout.write(printed);
