// A copy of the repository as a release job checks it out and builds it, in a folder of the
// caller's: what git would commit (tracked and new files, nothing ignored), the published
// packages' built `dist`, their links to their dependencies, the root's node_modules linked, and
// a git repository of its own with one commit. Releasing from it never touches the checkout.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Copies the repository at `root` into `destination` (created), for packages under `packages/`
 * whose names are given: their `dist` and `node_modules` (links, as pnpm made them) too.
 *
 * @example
 * copyRepository(ROOT, join(tmp, 'repo'), ['core', 'client', 'node']);
 * // then run `pnpm release:version` in join(tmp, 'repo')
 */
export function copyRepository(root: string, destination: string, packageDirs: readonly string[]): void {
  const git = (cwd: string, args: readonly string[]) =>
    execFileSync('git', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
  const files = git(root, ['ls-files', '-z', '--cached', '--others', '--exclude-standard']).split('\0').filter((f) => f !== '');
  for (const file of files) {
    if (!existsSync(join(root, file))) continue; // deleted in the working tree, not yet in git
    mkdirSync(dirname(join(destination, file)), { recursive: true });
    cpSync(join(root, file), join(destination, file), { verbatimSymlinks: true });
  }
  for (const dir of packageDirs) {
    for (const built of ['dist', 'node_modules']) {
      const from = join(root, 'packages', dir, built);
      if (!existsSync(from)) throw new Error(`packages/${dir}/${built} does not exist: build the workspace first`);
      cpSync(from, join(destination, 'packages', dir, built), { recursive: true, verbatimSymlinks: true });
    }
  }
  symlinkSync(join(root, 'node_modules'), join(destination, 'node_modules'), 'dir');
  const env = { ...process.env, GIT_AUTHOR_NAME: 'release rehearsal', GIT_AUTHOR_EMAIL: 'rehearsal@127.0.0.1', GIT_COMMITTER_NAME: 'release rehearsal', GIT_COMMITTER_EMAIL: 'rehearsal@127.0.0.1' };
  for (const args of [['init', '-q', '-b', 'main'], ['add', '-A'], ['commit', '-q', '--no-gpg-sign', '-m', 'The checkout a release job builds']]) {
    execFileSync('git', args, { cwd: destination, env, stdio: ['ignore', 'ignore', 'pipe'] });
  }
}
