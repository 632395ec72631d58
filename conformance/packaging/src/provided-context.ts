// What globalSetup hands the test files through provide/inject.
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** Each published package, packed once for the whole run (outside the workspace). */
    readonly packed: readonly { readonly name: string; readonly version: string; readonly dir: string; readonly tarball: string }[];
  }
}
