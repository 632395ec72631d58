// A fresh npm project outside the workspace, as a user's: the packed tarballs installed in it here,
// packages from a registry on 127.0.0.1 in conformance/registry.
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
  /** npm's output at `--loglevel=http` of its last install: every registry request it made. */
  readonly log: string;
  /** How long its last install took. */
  readonly seconds: number;
  /** `package-lock.json` as npm wrote it. */
  readonly lock: { readonly packages: Readonly<Record<string, { readonly resolved?: string; readonly version?: string }>> };
  /** Runs `npm install <args…>` in it again; resolves with the project after that install. */
  install(args: readonly string[]): Promise<NpmProject>;
  remove(): void;
}

/**
 * The environment without the `npm_*` variables a script runner sets (`npm_config_local_prefix`
 * would point npm at this workspace package): npm reads the machine's own configuration files,
 * as it does in a user's shell.
 *
 * @example
 * execFile('npm', ['install'], { cwd: dir, env: npmEnv() });
 */
export function npmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

/**
 * A new npm project in the system's temporary folder with `manifest` as its package.json and
 * `npmrc` (where `@mcp-resilience/*` comes from) plus quiet defaults as its .npmrc; then
 * `npm install <args…>` in it, third-party packages from the npm registry through the default
 * cache (so a second run is quick). Removed if the install fails.
 *
 * @example
 * const project = await npmProject({ name: 'app', version: '1.0.0', type: 'module' }, '@mcp-resilience:registry=http://127.0.0.1:4873/', ['@mcp-resilience/node']);
 * project.remove();
 */
export async function npmProject(manifest: object, npmrc: string, args: readonly string[]): Promise<NpmProject> {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-resilience-app-'));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify(manifest, null, 2));
  writeFileSync(join(dir, '.npmrc'), `${npmrc}\naudit=false\nfund=false\nupdate-notifier=false\n`);
  const install = async (more: readonly string[]): Promise<NpmProject> => {
    const started = performance.now();
    const { stdout, stderr } = await run('npm', ['install', '--prefer-offline', '--loglevel=http', ...more], {
      cwd: dir, env: npmEnv(), timeout: INSTALL_WITHIN_MS, maxBuffer: 64 * 1024 * 1024,
    });
    return {
      dir, log: `${stdout}${stderr}`, seconds: (performance.now() - started) / 1000,
      lock: JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as NpmProject['lock'],
      install, remove,
    };
  };
  try {
    return await install(args);
  } catch (error) {
    remove();
    throw error;
  }
}

/**
 * Installs the tarballs with npm into a new project, with `@mcp-resilience/*` only from the
 * tarballs: that scope's registry is a closed port, and `overrides` points the packages'
 * dependencies on each other at the same tarballs, so npm never looks them up (`npm i
 * tarballs/*.tgz` works too, after a 404 per lookup).
 *
 * @example
 * const project = await installTarballs(packed, { '@modelcontextprotocol/sdk': '1.32.2' });
 * project.remove();
 */
export function installTarballs(
  tarballs: readonly { readonly name: string; readonly tarball: string }[],
  thirdParty: Readonly<Record<string, string>>,
): Promise<NpmProject> {
  const ours = Object.fromEntries(tarballs.map((t) => [t.name, `file:${t.tarball}`]));
  return npmProject({
    name: 'app', version: '1.0.0', private: true, type: 'module',
    dependencies: { ...ours, ...thirdParty },
    overrides: Object.fromEntries(tarballs.map((t) => [t.name, `$${t.name}`])),
  }, `@mcp-resilience:registry=${CLOSED_REGISTRY}`, []);
}
