// The README's first example as a user would run it: its text, with the port of an mcp-chaos
// process (started and stopped by PID here) in place of 3000, written inside the repository's
// Deno workspace (where `jsr:@mcp-resilience/deno` is packages/deno), checked and run by Deno.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startChaosProcess } from '@mcp-resilience/chaos';
import { REPO_ROOT } from './deno-env.mjs';

const README = join(import.meta.dirname, '..', 'README.md');
const EXAMPLE = join(REPO_ROOT, '.test-results', 'deno-readme-example.ts');

/**
 * Checks and runs the README's example with `deno`; one result per claim, as `{ title, status }`.
 *
 * @example
 * results.push(...(await readmeExampleResults(denoBinary(pkg), denoEnv())));
 */
export async function readmeExampleResults(deno, env) {
  const example = /```ts\n([\s\S]*?)```/.exec(readFileSync(README, 'utf8'))?.[1] ?? '';
  const chaos = await startChaosProcess();
  try {
    const port = new URL(chaos.url).port;
    writeFileSync(EXAMPLE, example.replaceAll('127.0.0.1:3000', `127.0.0.1:${port}`));
    const run = (args) => spawnSync(deno, args, { cwd: REPO_ROOT, env, encoding: 'utf8', timeout: 60_000 });
    const checked = run(['check', EXAMPLE]);
    const answered = run(['run', '--no-prompt', `--allow-net=127.0.0.1:${port}`, EXAMPLE]);
    const refused = run(['run', '--no-prompt', '--allow-net=127.0.0.1:1', EXAMPLE]);
    const claims = [
      ['the README example: deno check', checked, example !== '' && checked.status === 0],
      ['the README example answers through mcp-chaos and exits 0', answered, answered.status === 0 && answered.stdout.includes('text: "hi"')],
      [
        'the README example without --allow-net of the server says the flag it needs and exits 1', refused,
        refused.status === 1 && refused.stderr.endsWith(`run with --allow-net=127.0.0.1:${port}\n`),
      ],
    ];
    for (const [title, out, held] of claims) if (!held) process.stdout.write(`${title}: FAILED, exit ${out.status}\n${out.stdout}${out.stderr}\n`);
    return claims.map(([title, , held]) => ({ title, status: held ? 'passed' : 'failed' }));
  } finally {
    await chaos.stop();
  }
}
