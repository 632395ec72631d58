// What globalSetup (Node) hands the tests (workerd) through provide/inject.
export {};

declare module 'vitest' {
  export interface ProvidedContext {
    /** The control API of the pool: `POST {chaosControl}/servers`. */
    readonly chaosControl: string;
    /** An mcp-chaos in front of the schema server: its MCP endpoint and control API. */
    readonly schemaUrl: string;
    readonly schemaControl: string;
  }
}
