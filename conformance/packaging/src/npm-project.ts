// A fresh npm project outside the workspace with the packed tarballs installed, as a user's.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A registry address that refuses every connection: where npm is sent for `@mcp-resilience/*`. */
export const CLOSED_REGISTRY = 'http://127.0.0.1:9/';
const INSTALL_WITHIN_MS = 240_000;

export interface NpmProject {
  readonly dir: string;
  /** npm's output at `--loglevel=http`: every registry request it made. */
  readonly log: string;
  readonly seconds: number;
  /** `package-lock.json` as npm wrote it. */
  readonly lock: { readonly packages: Readonly<Record<string, { readonly resolved?: string; readonly version?: string }>> };
  remove(): void;
}

/**
 * The environment without the `npm_*` variables a script runner sets (`npm_config_local_prefix`
 * would point npm at this workspace package): npm reads the machine's own configuration files,
 * as it does in a user's shell.
 */
export function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

/**
 * Installs the tarballs with npm into a new project in the system's temporary folder, with
 * third-party packages from the npm registry (the default cache, so a second run is quick) and
 * `@mcp-resilience/*` only from the tarballs: that scope's registry is a closed port, and
 * `overrides` points the packages' dependencies on each other at the same tarballs, so npm
 * never looks them up (`npm i tarballs/*.tgz` works too, after a 404 per lookup).
 *
 * @example
 * const project = await installTarballs(packed, { '@modelcontextprotocol/sdk': '1.32.2' });
 * project.remove();
 */
export async function installTarballs(
  tarballs: readonly { readonly name: string; readonly tarball: string }[],
  thirdParty: Readonly<Record<string, string>>,
): Promise<NpmProject> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-resilience-app-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  try {
    const ours = Object.fromEntries(tarballs.map((t) => [t.name, `file:${t.tarball}`]));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({
      name: 'app', version: '1.0.0', private: true, type: 'module',
      dependencies: { ...ours, ...thirdParty },
      overrides: Object.fromEntries(tarballs.map((t) => [t.name, `$${t.name}`])),
    }, null, 2));
    writeFileSync(join(dir, '.npmrc'), `@mcp-resilience:registry=${CLOSED_REGISTRY}\naudit=false\nfund=false\nupdate-notifier=false\n`);
    const started = performance.now();
    const { stdout, stderr } = await run('npm', ['install', '--prefer-offline', '--loglevel=http'], {
      cwd: dir, env: npmEnv(), timeout: INSTALL_WITHIN_MS, maxBuffer: 64 * 1024 * 1024,
    });
    return {
      dir, log: `${stdout}${stderr}`, seconds: (performance.now() - started) / 1000,
      lock: JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as NpmProject['lock'],
      remove,
    };
  } catch (error) {
    remove();
    throw error;
  }
}
