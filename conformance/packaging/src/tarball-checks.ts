// What a packed package must hold before anyone installs it. Each check returns the problems it
// found, one readable line each; an empty list is a pass.
import { isBuiltin } from 'node:module';
import { posix } from 'node:path';
import ts from 'typescript';
import { textOf, type Manifest } from './tarball.ts';

type Files = ReadonlyMap<string, Uint8Array>;

const DEPENDENCY_FIELDS = ['dependencies', 'peerDependencies', 'optionalDependencies', 'devDependencies'] as const;

/**
 * Dependency ranges that only mean something inside this workspace (`workspace:`, `link:`,
 * `file:`, `catalog:`): a user's npm cannot resolve them.
 *
 * @example
 * unpublishableRanges({ name: 'a', version: '1.0.0', dependencies: { b: 'workspace:*' } });
 * // ['dependencies.b is "workspace:*"']
 */
export function unpublishableRanges(manifest: Manifest): string[] {
  return DEPENDENCY_FIELDS.flatMap((field) =>
    Object.entries(manifest[field] ?? {})
      .filter(([, range]) => /^(workspace|link|file|catalog|portal):/.test(range))
      .map(([name, range]) => `${field}.${name} is "${range}"`),
  );
}

/**
 * Source maps (`*.map`) whose sources are not in the package, and `sourceMappingURL` comments
 * that name a map that is not: a debugger or an editor's "go to definition" would land nowhere.
 *
 * @example
 * sourceMapProblems(new Map([['dist/a.js.map', bytes('{"version":3,"sources":["../src/a.ts"],"mappings":""}')]]));
 * // ['dist/a.js.map points at src/a.ts, which is not in the package']
 */
export function sourceMapProblems(files: Files): string[] {
  const problems: string[] = [];
  for (const path of files.keys()) {
    const dir = posix.dirname(path);
    if (path.endsWith('.map')) {
      const map = JSON.parse(textOf(files, path)) as { sources?: string[]; sourceRoot?: string };
      for (const source of map.sources ?? []) {
        const target = posix.normalize(posix.join(dir, map.sourceRoot ?? '', source));
        if (!files.has(target)) problems.push(`${path} points at ${target}, which is not in the package`);
      }
    } else if (/\.(m?js|d\.ts)$/.test(path)) {
      const url = /\/[/*]# sourceMappingURL=(\S+?)(?:\s*\*\/)?\s*$/.exec(textOf(files, path))?.[1];
      if (url !== undefined && !url.startsWith('data:') && !files.has(posix.normalize(posix.join(dir, url)))) {
        problems.push(`${path} names the map ${url}, which is not in the package`);
      }
    }
  }
  return problems;
}

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageNameOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/** A relative import as the package's files resolve it: `x.js` or `x.ts` may stand for `x.d.ts` in a declaration. */
function relativeTargets(from: string, specifier: string): string[] {
  const target = posix.normalize(posix.join(posix.dirname(from), specifier));
  if (!from.endsWith('.d.ts')) return [target];
  const stem = target.replace(/\.(m?[jt]s)$/, '');
  return [target, `${stem}.d.ts`, `${stem}.d.mts`];
}

/**
 * Imports of the shipped JavaScript and declarations that a user's install would not satisfy:
 * a package not declared in `dependencies`, `peerDependencies` or `optionalDependencies`
 * (a devDependency is not installed for a user), or a relative file that was not packed.
 * Node built-ins and runtime schemes (`cloudflare:workers`) are the runtime's.
 *
 * @example
 * undeclaredImports({ name: 'a', version: '1.0.0' }, new Map([['dist/index.js', bytes("import 'b';")]]));
 * // ['dist/index.js imports b, which the manifest does not declare']
 */
export function undeclaredImports(manifest: Manifest, files: Files): string[] {
  const declared = new Set([
    manifest.name,
    ...Object.keys(manifest.dependencies ?? {}),
    ...Object.keys(manifest.peerDependencies ?? {}),
    ...Object.keys(manifest.optionalDependencies ?? {}),
  ]);
  const problems: string[] = [];
  for (const path of files.keys()) {
    if (!/\.(m?js|d\.ts)$/.test(path) || path.startsWith('src/')) continue;
    for (const { fileName: specifier } of ts.preProcessFile(textOf(files, path), true, true).importedFiles) {
      if (specifier.startsWith('.')) {
        if (!relativeTargets(path, specifier).some((target) => files.has(target))) {
          problems.push(`${path} imports ${specifier}, which is not in the package`);
        }
      } else if (!/^[a-z]+:/.test(specifier) && !isBuiltin(specifier) && !declared.has(packageNameOf(specifier))) {
        problems.push(`${path} imports ${specifier}, which the manifest does not declare`);
      }
    }
  }
  return problems;
}

/**
 * Files a user should get and files they should not: LICENSE (the repository's, byte for
 * byte), README.md, no tests and no test support.
 *
 * @example
 * contentProblems(files, readFileSync('LICENSE', 'utf8')); // []
 */
export function contentProblems(files: Files, license: string): string[] {
  const problems: string[] = [];
  if (!files.has('LICENSE')) problems.push('no LICENSE');
  else if (textOf(files, 'LICENSE') !== license) problems.push('LICENSE differs from the repository LICENSE');
  if (!files.has('README.md')) problems.push('no README.md');
  for (const path of files.keys()) {
    if (/\.test\.[cm]?[jt]s$|(^|\/)test-support\//.test(path)) problems.push(`${path} is a test file`);
  }
  return problems;
}
