// The release, rehearsed: on a copy of the repository, the workflow's step that names the
// repository in the manifests, then the two commands it gives changesets' action (`version`, then
// `publish`), run as the action runs them, against a registry on 127.0.0.1 instead of npm's. The
// checkout is never touched.
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { copyRepository } from './repository-copy.ts';
import { releaseWorkflowOf } from './release-workflow.ts';

// A cap for a command that hangs. `publish` is about 45 s of CPU (seven `pnpm publish`, each
// packing and starting `npm publish`, and a `pnpm --version` and `npm info` each from changesets):
// on a 2-core machine at a load of 30 it took 120 to over 300 s of wall time.
const COMMAND_WITHIN_MS = 600_000;

/** A published package, before and after the release's `version` command. */
export interface Release {
  readonly name: string;
  /** Its folder under `packages/`. */
  readonly folder: string;
  readonly oldVersion: string;
  readonly newVersion: string;
}

export interface Rehearsal {
  /** The copy of the repository the release ran in. */
  readonly dir: string;
  readonly released: readonly Release[];
  /** The commands from the workflow, and what each printed (stdout and stderr). */
  /** The workflow's step that writes `repository` into the manifests, run with {@link REHEARSAL_REPOSITORY}. */
  readonly repository: { readonly command: string; readonly output: string };
  readonly version: { readonly command: string; readonly output: string };
  readonly publish: { readonly command: string; readonly output: string };
  /** Seconds each step took. */
  readonly seconds: Readonly<Record<'copy' | 'version' | 'publish', number>>;
}

/** The repository a GitHub Actions job would name (`GITHUB_SERVER_URL`, `GITHUB_REPOSITORY`): made up, as no one publishes from here. */
export const REHEARSAL_REPOSITORY = { GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'rehearsal-owner/mcp-resilience-rehearsal' } as const;

/**
 * The environment of a release job's step, with the registry at `registryUrl`: none of the
 * `npm_*` variables of the test's own script runner (nor `NPM_CONFIG_PROVENANCE`: there is no CI
 * identity to sign with here), `npm_config_registry` as a job would set it for another registry
 * (changesets reads it, and hands it to the publishing `pnpm publish`), and a user config with a
 * token for it, as actions/setup-node writes one.
 */
function releaseEnv(registryUrl: string, userconfig: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  const host = registryUrl.replace(/^https?:/, '');
  writeFileSync(userconfig, `${host}:_authToken=rehearsal\nupdate-notifier=false\nfund=false\naudit=false\n`);
  return {
    ...env, ...REHEARSAL_REPOSITORY, CI: 'true', npm_config_registry: registryUrl, npm_config_userconfig: userconfig,
    GIT_AUTHOR_NAME: 'release rehearsal', GIT_AUTHOR_EMAIL: 'rehearsal@127.0.0.1',
    GIT_COMMITTER_NAME: 'release rehearsal', GIT_COMMITTER_EMAIL: 'rehearsal@127.0.0.1',
  };
}

/**
 * Runs a workflow command line (no shell: the workflow's commands are plain words) in a process
 * group of its own, so that a timeout ends it with everything it started (pnpm's scripts, the
 * `pnpm publish` and `npm publish` under changesets), by the group's id.
 */
function runCommand(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string> {
  const [file, ...args] = command.split(/\s+/);
  const child = spawn(file!, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-child.pid!, 'SIGKILL');
  }, COMMAND_WITHIN_MS);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      if (code === 0 && !timedOut) resolve(output);
      else reject(new Error(`\`${command}\` ${timedOut ? `did not end within ${COMMAND_WITHIN_MS / 1000} s` : `failed (exit ${code})`}:\n${output}`));
    });
  });
}

/**
 * Copies the repository at `root` into `workDir/repo` (with the built published `packages`),
 * then runs there the workflow's repository step (with a made-up GitHub repository), its
 * `version` command and its `publish` command, with the registry at `registryUrl`.
 *
 * @example
 * const rehearsal = await rehearseRelease(ROOT, tmp, registry.url, [{ name: '@mcp-resilience/core', folder: 'core' }]);
 * rehearsal.released; // [{ name: '@mcp-resilience/core', folder: 'core', oldVersion: '0.0.0', newVersion: '0.1.0' }]
 */
export async function rehearseRelease(
  root: string, workDir: string, registryUrl: string, packages: readonly { readonly name: string; readonly folder: string }[],
): Promise<Rehearsal> {
  let lap = performance.now();
  const took = () => {
    const seconds = (performance.now() - lap) / 1000;
    lap = performance.now();
    return Math.round(seconds * 10) / 10;
  };
  const dir = join(workDir, 'repo');
  copyRepository(root, dir, packages.map((p) => p.folder));
  const copied = took();
  const env = releaseEnv(registryUrl, join(workDir, 'release.npmrc'));
  const workflow = releaseWorkflowOf(dir);
  if (workflow.repositoryCommand === undefined) throw new Error('the release workflow has no step that writes repository.url before changesets/action');
  const repository = { command: workflow.repositoryCommand, output: await runCommand(workflow.repositoryCommand, dir, env) };
  const version = { command: workflow.versionCommand, output: await runCommand(workflow.versionCommand, dir, env) };
  const versioned = took();
  const versionOf = (at: string) => (JSON.parse(readFileSync(join(at, 'package.json'), 'utf8')) as { version: string }).version;
  const released = packages.map(({ name, folder }) => ({
    name, folder, oldVersion: versionOf(join(root, 'packages', folder)), newVersion: versionOf(join(dir, 'packages', folder)),
  }));
  const publish = { command: workflow.publishCommand, output: await runCommand(workflow.publishCommand, dir, env) };
  return { dir, released, repository, version, publish, seconds: { copy: copied, version: versioned, publish: took() } };
}
