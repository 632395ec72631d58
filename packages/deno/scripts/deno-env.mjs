// How this repository runs Deno from Node scripts: the npm package `deno` of a workspace package,
// with its cache (DENO_DIR) inside the repository, so nothing lands in `~`.
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/** The repository's root. */
export const REPO_ROOT = join(import.meta.dirname, '..', '..', '..');

/**
 * The Deno binary of the workspace package at `packageDir` (its devDependency `deno`): the binary
 * itself, not the Node wrapper in node_modules/.bin, so a test may allow it with --allow-run.
 *
 * @example
 * spawnSync(denoBinary(appDir), ['check', 'src/main.ts'], { env: denoEnv() });
 */
export function denoBinary(packageDir) {
  return join(dirname(createRequire(join(packageDir, 'package.json')).resolve('deno/package.json')), 'deno');
}

/**
 * The environment Deno runs in: DENO_DIR is `.deno/` of the repository, no colours, and the
 * system's certificate store trusted too when Deno fetches npm packages itself (a registry
 * reached through a proxy with its own CA, as on these machines), with the CA file Node is given.
 *
 * @example
 * spawnSync(denoBinary(appDir), ['run', 'src/main.ts'], { env: denoEnv() });
 */
export function denoEnv(env = process.env) {
  const caFile = env.DENO_CERT ?? env.NODE_EXTRA_CA_CERTS ?? env.SSL_CERT_FILE;
  return {
    ...env, DENO_DIR: join(REPO_ROOT, '.deno'), NO_COLOR: '1', DENO_TLS_CA_STORE: env.DENO_TLS_CA_STORE ?? 'system,mozilla',
    ...(caFile ? { DENO_CERT: caFile } : {}),
  };
}
