// What the release workflow names that the repository does not have: a script, a package, a tool
// version other than the one the repository pins, a permission the release needs. One readable
// line per problem; an empty list is a pass.
import { commandLines, REPOSITORY_SCRIPT, type ReleaseWorkflow } from './release-workflow.ts';

/** The facts of the repository the workflow must agree with. */
export interface RepositoryFacts {
  /** The root package.json's scripts. */
  readonly scripts: Readonly<Record<string, string>>;
  /** Every workspace package's name. */
  readonly packages: readonly string[];
  /** `packageManager`'s pnpm version, the `deno` devDependency's version, `engines.node`'s lowest version. */
  readonly pnpm: string;
  readonly deno: string;
  readonly node: string;
  /** Whether a file exists at this path of the repository. */
  readonly exists: (path: string) => boolean;
}

/** pnpm's own commands a workflow may run (anything else after `pnpm` must be a root script). */
const PNPM_COMMANDS = new Set(['install', 'i', 'exec', 'run', 'publish', 'changeset']);

function pnpmProblems(words: readonly string[], facts: RepositoryFacts): string[] {
  const problems: string[] = [];
  const rest = [...words];
  while (rest[0]?.startsWith('-')) {
    const flag = rest.shift()!;
    if (flag === '--filter' || flag === '-F') {
      const name = rest.shift() ?? '';
      if (!facts.packages.includes(name)) problems.push(`pnpm --filter ${name}: no workspace package is named so`);
    }
  }
  const [command = '', script] = rest;
  if (command === 'run' && script !== undefined && !(script in facts.scripts)) problems.push(`pnpm run ${script}: the root package.json has no such script`);
  if (!PNPM_COMMANDS.has(command) && !(command in facts.scripts)) problems.push(`pnpm ${command}: the root package.json has no such script`);
  return problems;
}

/**
 * Checks every command of the workflow and the release's needs against the repository.
 *
 * @example
 * workflowProblems(readReleaseWorkflow(text), facts); // [] when it names only what exists
 */
export function workflowProblems(workflow: ReleaseWorkflow, facts: RepositoryFacts): string[] {
  const problems: string[] = [];
  for (const line of commandLines(workflow)) {
    const words = line.split(/\s+/);
    const pinned = /^(pnpm|deno)@(\S+)$/.exec(words.find((w) => /^(pnpm|deno)@/.test(w)) ?? '');
    if (pinned && pinned[2] !== facts[pinned[1] as 'pnpm' | 'deno']) problems.push(`${line}: the repository pins ${pinned[1]}@${facts[pinned[1] as 'pnpm' | 'deno']}`);
    if (words[0] === 'pnpm') problems.push(...pnpmProblems(words.slice(1), facts));
    if (words[0] === 'node' && words[1] !== undefined && !facts.exists(words[1])) problems.push(`${line}: the repository has no ${words[1]}`);
  }
  if (workflow.repositoryCommand !== `node ${REPOSITORY_SCRIPT}`) {
    problems.push(`no step before changesets/action runs \`node ${REPOSITORY_SCRIPT}\` (npm provenance needs repository.url)`);
  }
  for (const [name, needs] of [['version', 'changeset version'], ['publish', 'changeset publish']] as const) {
    const command = name === 'version' ? workflow.versionCommand : workflow.publishCommand;
    const script = /^pnpm (?:run )?(\S+)$/.exec(command)?.[1];
    if (script === undefined || !facts.scripts[script]?.includes(needs)) problems.push(`changesets' ${name} (${command}) does not run \`${needs}\``);
  }
  const setupNode = workflow.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
  if (String(setupNode?.with?.['node-version'] ?? '') !== facts.node) problems.push(`setup-node's node-version is not ${facts.node}, the lowest engines.node allows`);
  for (const [permission, access] of [['contents', 'write'], ['pull-requests', 'write'], ['id-token', 'write']]) {
    if (workflow.permissions[permission!] !== access) problems.push(`permissions.${permission} is not ${access}`);
  }
  const env = workflow.changesets.env ?? {};
  if (String(env['NPM_CONFIG_PROVENANCE']) !== 'true') problems.push('changesets/action publishes without NPM_CONFIG_PROVENANCE: true');
  if (env['NPM_TOKEN'] !== '${{ secrets.NPM_TOKEN }}') problems.push('changesets/action gets no NPM_TOKEN secret');
  const jsr = workflow.steps.find((s) => /\bdeno@\S+ publish\b/.test(s.run ?? ''));
  if (jsr === undefined) problems.push('no step runs deno publish');
  else if (jsr.if !== `steps.${workflow.changesets.id}.outputs.published == 'true'`) problems.push('deno publish does not wait for npm: its `if` is not the changesets step\'s `published` output');
  return problems;
}
