// The release workflow (.github/workflows/release.yml) as data: its steps, the commands changesets'
// action runs, and every `pnpm …` / `npx …` command line in it, for the rehearsal to run and for
// the test that checks it names only what exists.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

export interface WorkflowStep {
  readonly name?: string;
  readonly id?: string;
  readonly if?: string;
  readonly uses?: string;
  readonly run?: string;
  readonly with?: Readonly<Record<string, string | number | boolean>>;
  readonly env?: Readonly<Record<string, string | number | boolean>>;
  readonly 'working-directory'?: string;
}

export interface ReleaseWorkflow {
  readonly on: unknown;
  readonly permissions: Readonly<Record<string, string>>;
  readonly steps: readonly WorkflowStep[];
  /** The step that uses `changesets/action`. */
  readonly changesets: WorkflowStep;
  /** Its `version` and `publish` commands, as the action runs them. */
  readonly versionCommand: string;
  readonly publishCommand: string;
  /** The `run` of the step before the changesets step that writes `repository` into the manifests, if any. */
  readonly repositoryCommand?: string;
}

/** The script that writes `repository.url` from the CI job's environment before `changeset publish`. */
export const REPOSITORY_SCRIPT = 'scripts/set-repository-url.mjs';

/**
 * Reads the workflow's single job. Fails with a plain message when it has no changesets step or
 * that step lacks `version` or `publish`.
 *
 * @example
 * const { versionCommand } = readReleaseWorkflow(readFileSync('.github/workflows/release.yml', 'utf8'));
 * versionCommand; // 'pnpm release:version'
 */
export function readReleaseWorkflow(text: string): ReleaseWorkflow {
  const doc = parse(text) as { on: unknown; permissions?: Record<string, string>; jobs: Record<string, { steps: WorkflowStep[] }> };
  const jobs = Object.values(doc.jobs ?? {});
  if (jobs.length !== 1) throw new Error(`expected one job, found ${jobs.length}`);
  const steps = jobs[0]!.steps;
  const changesets = steps.find((s) => s.uses?.startsWith('changesets/action@'));
  if (changesets === undefined) throw new Error('no step uses changesets/action');
  const versionCommand = changesets.with?.['version'];
  const publishCommand = changesets.with?.['publish'];
  if (typeof versionCommand !== 'string' || typeof publishCommand !== 'string') throw new Error('changesets/action has no version or publish command');
  const repository = steps.slice(0, steps.indexOf(changesets)).find((s) => s.run?.includes(REPOSITORY_SCRIPT));
  return {
    on: doc.on, permissions: doc.permissions ?? {}, steps, changesets, versionCommand, publishCommand,
    ...(repository?.run ? { repositoryCommand: repository.run.trim() } : {}),
  };
}

/**
 * The workflow file of the repository at `root`.
 *
 * @example
 * releaseWorkflowOf('/path/to/checkout').publishCommand; // 'pnpm release:publish'
 */
export function releaseWorkflowOf(root: string): ReleaseWorkflow {
  return readReleaseWorkflow(readFileSync(`${root}/.github/workflows/release.yml`, 'utf8'));
}

/**
 * Every command line of the workflow: each line of each `run`, split on `&&`, and the action's
 * `version` and `publish`; comments and blank lines left out.
 *
 * @example
 * commandLines(workflow); // ['npm i -g pnpm@10.34.9', 'pnpm install --frozen-lockfile', 'pnpm build', …]
 */
export function commandLines(workflow: ReleaseWorkflow): string[] {
  return [
    ...workflow.steps.flatMap((s) => (s.run ?? '').split('\n')),
    workflow.versionCommand,
    workflow.publishCommand,
  ].flatMap((line) => line.replace(/#.*$/, '').split('&&')).map((c) => c.trim()).filter((c) => c !== '');
}
