#!/usr/bin/env node
// mcp-chaos: starts a chaos server and prints {"url", "control"} as the first stdout line;
// `mcp-chaos check --client "CMD"` scores a client against session churn instead, and
// `mcp-chaos check --server URL` (or `--server-command "CMD"`) a server's session contract.
import { startChaosServer } from './chaos-server.ts';
import { checkMain } from './check/check-cli.ts';
import { optionsFromArgs, USAGE } from './cli-options.ts';

async function main(): Promise<void> {
  if (process.argv[2] === 'check') return void (process.exitCode = await checkMain(process.argv.slice(3)));
  let options: ReturnType<typeof optionsFromArgs>;
  try {
    options = optionsFromArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`mcp-chaos: ${(error as Error).message}\n\n${USAGE}\n`);
    process.exit(2);
  }
  if (options === 'help') return void process.stdout.write(`${USAGE}\n`);
  const chaos = await startChaosServer(options);
  const stop = () => void chaos.stop().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  // Only now: whoever reads this line may signal at once.
  process.stdout.write(`${JSON.stringify({ url: chaos.url, control: chaos.control })}\n`);
}

void main();
