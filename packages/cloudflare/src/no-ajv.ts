import { ResilienceError } from '@mcp-resilience/core';

/**
 * A stand-in for `ajv` (and `ajv-formats`) in a Worker bundle. The SDK 1.x imports Ajv for its
 * default validator, which generates code (`new Function`) that Workers refuse; this package
 * passes `CfWorkerJsonSchemaValidator` instead, so Ajv is never used. Alias `ajv` and
 * `ajv-formats` to this module (`"alias"` in `wrangler.jsonc`) and the bundle holds no code
 * generation; should anything construct Ajv after all, it throws `RUNTIME_UNSUPPORTED` saying why.
 *
 * @example
 * // wrangler.jsonc
 * "alias": { "ajv": "@mcp-resilience/cloudflare/no-ajv", "ajv-formats": "@mcp-resilience/cloudflare/no-ajv" }
 */
export default class NoAjv {
  constructor() {
    throw new ResilienceError({
      code: 'RUNTIME_UNSUPPORTED', details: { needs: 'code generation' },
      message: 'Ajv generates code, which Workers refuse: use CfWorkerJsonSchemaValidator (the default of @mcp-resilience/cloudflare)',
    });
  }
}
