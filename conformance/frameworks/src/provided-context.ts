// What globalSetup hands the test files through provide/inject.
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The control API of the run's mcp-chaos process: `POST {chaosControl}/servers` gives a fresh server. */
    readonly chaosControl: string;
  }
}
