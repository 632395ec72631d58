import { cruise, type ICruiseResult } from 'dependency-cruiser';

/** Files that import each other in a loop (directly or through others), sorted; and one loop through all of them. */
export interface ImportCycle {
  /** Every file of the loop, sorted, relative to the folder the graph was read from. */
  readonly files: readonly string[];
  /** One way round: each file imports the next, and the last the first (`a.ts → b.ts → a.ts`). */
  readonly loop: readonly string[];
}

/** The import graph as read: every file it holds (installed packages aside), and its cycles. */
export interface ImportGraph {
  /** Every file read, relative to the folder the graph was read from, sorted. */
  readonly files: readonly string[];
  readonly cycles: readonly ImportCycle[];
}

/**
 * The import cycles among the files under `folders` (relative to `baseDir`): dependency-cruiser
 * reads every import and export, type-only ones included (`tsPreCompilationDeps`), and marks each
 * import that lies on a loop; files tied by such imports are one cycle (a strongly connected
 * component of those imports). Installed packages are read as leaves; nothing in `exclude` is read.
 *
 * @example
 * const { cycles } = await findImportCycles('/repo', ['packages/core/src'], /node_modules|dist/);
 * cycles.map(describeCycle) // ['packages/core/src/a.ts → packages/core/src/b.ts → packages/core/src/a.ts']
 */
export async function findImportCycles(baseDir: string, folders: readonly string[], exclude: RegExp): Promise<ImportGraph> {
  const { output } = await cruise([...folders], {
    baseDir,
    tsPreCompilationDeps: true,
    exclude: { path: exclude.source },
    doNotFollow: { path: 'node_modules' },
    validate: true,
    ruleSet: { forbidden: [{ name: 'no-circular', severity: 'error', from: {}, to: { circular: true } }] },
  });
  const result = output as ICruiseResult;
  const files = result.modules.filter((m) => !m.coreModule && !m.couldNotResolve && !/(^|\/)node_modules\//.test(m.source)).map((m) => m.source).sort();
  return { files, cycles: cyclesOf(result) };
}

/**
 * A cycle in one line: its loop, file by file.
 *
 * @example
 * describeCycle({ files: ['a.ts', 'b.ts'], loop: ['a.ts', 'b.ts'] }) // 'a.ts → b.ts → a.ts'
 */
export function describeCycle(cycle: ImportCycle): string {
  return [...cycle.loop, cycle.loop[0]].join(' → ');
}

/** The cycles of a cruise: its imports that lie on a loop, grouped into strongly connected components (Tarjan). */
function cyclesOf(result: ICruiseResult): ImportCycle[] {
  const edges = new Map<string, string[]>();
  for (const module of result.modules) {
    const next = module.dependencies.filter((d) => d.circular).map((d) => d.resolved);
    if (next.length > 0) edges.set(module.source, [...new Set(next)].sort());
  }
  return components(edges)
    .filter((files) => files.length > 1 || edges.get(files[0]!)?.includes(files[0]!))
    .map((files) => ({ files: [...files].sort(), loop: loopThrough(new Set(files), edges) }))
    .sort((a, b) => a.files[0]!.localeCompare(b.files[0]!));
}

function components(edges: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (file: string): void => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    found.push(component);
  };
  for (const file of [...edges.keys()].sort()) if (!index.has(file)) visit(file);
  return found;
}

/** A walk from the component's first file back to it, each step to a file not yet walked that still leads back (so a small cycle reads whole). */
function loopThrough(members: ReadonlySet<string>, edges: ReadonlyMap<string, readonly string[]>): string[] {
  const start = [...members].sort()[0]!;
  const loop = [start];
  const seen = new Set(loop);
  for (let at = start; ;) {
    const inside = (edges.get(at) ?? []).filter((next) => members.has(next));
    const next = inside.find((file) => !seen.has(file) && reaches(file, start, members, seen, edges)) ?? inside.find((file) => file === start);
    if (next === undefined || next === start) return loop;
    loop.push(next);
    seen.add(next);
    at = next;
  }
}

/** Whether `from` reaches `to` through members not yet `walked`. */
function reaches(from: string, to: string, members: ReadonlySet<string>, walked: ReadonlySet<string>, edges: ReadonlyMap<string, readonly string[]>): boolean {
  const seen = new Set([...walked, from]);
  const queue = [from];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const next of edges.get(file) ?? []) {
      if (next === to) return true;
      if (members.has(next) && !seen.has(next)) seen.add(next), queue.push(next);
    }
  }
  return false;
}
