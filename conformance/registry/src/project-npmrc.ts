/**
 * The .npmrc of a user's project that takes `@mcp-resilience/*` from `registry` and everything
 * else from npm's: how the rehearsal's fresh projects (npm and Deno) reach the registry on
 * 127.0.0.1, which proxies nothing. The lockfile keeps each package's `resolved` URL (a machine's
 * own npmrc may leave it out), so a test can see where each came from.
 *
 * @example
 * writeFileSync(join(dir, '.npmrc'), projectNpmrc('http://127.0.0.1:4873/'));
 */
export function projectNpmrc(registry: string): string {
  return `@mcp-resilience:registry=${registry}\nomit-lockfile-registry-resolved=false\n`;
}
