// What globalSetup (Node) hands the tests (workerd) through provide/inject.
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The control API of the pool: `POST {chaosControl}/servers`. */
    readonly chaosControl: string;
  }
}
