import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readyWithin } from '@mcp-resilience/chaos/process';
import { build, type Plugin } from 'esbuild';
import type { RecipeModule } from '../recipe-module.ts';

/** What the test uses of Miniflare; imported by a name TypeScript does not follow (its declarations are most of the type-check's time). */
interface Workerd {
  readonly ready: Promise<unknown>;
  dispatchFetch(url: string, init: { method: string; body: string }): Promise<{ ok: boolean; status: number; text(): Promise<string>; json(): Promise<unknown> }>;
  dispose(): Promise<void>;
}
const MINIFLARE: string = 'miniflare';

/** The bundle's sources live in the package (so its dependencies resolve); the bundle itself in a temporary folder. */
const SOURCES = fileURLToPath(new URL('../../.recipes/cloudflare/', import.meta.url));

/** Bare Node built-ins (`path`) as workerd's `node:` modules, as wrangler does with `nodejs_compat`. */
const nodeBuiltins: Plugin = {
  name: 'node-builtins',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${builtinModules.join('|')})(/.*)?$`) }, (a) => ({ path: `node:${a.path}`, external: true }));
  },
};

// The harness around the page's two recipes: each recipe's agent class, with one method to call a
// tool as the agent's own code would (this.mcp.callTool), bound as a Durable Object; a fetch handler
// the test drives with dispatchFetch. An error crosses back as its name, message and engine code.
const ENTRY = `
import { ChaosAgent as PlainRecipe } from './plain.mjs';
import { ChaosAgent as EngineRecipe } from './engine.mjs';

const withCalls = (Recipe) => class extends Recipe {
  async callTool(serverId, name, args) {
    try { return { ok: true, result: await this.mcp.callTool({ serverId, name, arguments: args }) }; }
    catch (e) { return { ok: false, name: e?.name, message: String(e?.message ?? e), code: e?.name === 'ResilienceError' ? e.code : undefined }; }
  }
  async open(url) {
    try { return { ok: true, id: await this.addChaos(url) }; }
    catch (e) { return { ok: false, name: e?.name, message: String(e?.message ?? e) }; }
  }
};
export const PlainAgent = withCalls(PlainRecipe);
export const EngineAgent = withCalls(EngineRecipe);

export default {
  async fetch(request, env) {
    const { agent, method, args } = await request.json();
    const stub = env[agent].get(env[agent].idFromName(args.shift()));
    return Response.json(await stub[method](...args));
  },
};
`;

type Answer = { ok: true; id?: string; result?: unknown } | { ok: false; name?: string; message: string; code?: string };

/** An error thrown inside workerd, as the test sees it: its name and message, and the engine's code as `resilienceCode`. */
function crossed(answer: Extract<Answer, { ok: false }>): Error {
  return Object.assign(new Error(answer.message), { name: answer.name ?? 'Error', ...(answer.code ? { resilienceCode: answer.code } : {}) });
}

/** The page's two Cloudflare recipes running in workerd, and how to stop it. */
export interface WorkerdRecipes {
  readonly plain: RecipeModule;
  readonly engine: RecipeModule;
  /** What `addChaos('http://10.0.0.1/mcp')` threw (a private address), or undefined if it connected. */
  notes(): Promise<Record<string, string | undefined>>;
  dispose(): Promise<void>;
}

/**
 * Bundles the page's plain and engine recipes (each an `Agent` subclass, `ChaosAgent`) with esbuild
 * as wrangler would, and runs them in workerd (Miniflare) as two Durable Object classes with SQLite
 * storage. Each `open(url)` is a new agent (a Durable Object of its own) connecting to `url`.
 *
 * @example
 * const recipes = await startWorkerdRecipes({ plain: plainCode, engine: engineCode });
 * const opened = await recipes.engine.open(url);
 * await recipes.dispose();
 */
export async function startWorkerdRecipes(codes: { readonly plain: string; readonly engine: string }): Promise<WorkerdRecipes> {
  mkdirSync(SOURCES, { recursive: true });
  writeFileSync(`${SOURCES}plain.mjs`, codes.plain);
  writeFileSync(`${SOURCES}engine.mjs`, codes.engine);
  writeFileSync(`${SOURCES}entry.mjs`, ENTRY);
  const out = mkdtempSync(join(tmpdir(), 'frameworks-workerd-'));
  let mf: Workerd | undefined;
  try {
    await build({
      entryPoints: [`${SOURCES}entry.mjs`], outfile: join(out, 'worker.js'), bundle: true, format: 'esm', platform: 'neutral',
      conditions: ['workerd', 'worker', 'browser'], mainFields: ['module', 'main'], external: ['cloudflare:*', 'node:*'],
      plugins: [nodeBuiltins], logLevel: 'error',
    });
    const { Miniflare } = (await import(MINIFLARE)) as { Miniflare: new (options: object) => Workerd };
    mf = new Miniflare({
      modules: true, modulesRoot: out, scriptPath: join(out, 'worker.js'), cf: false,
      compatibilityDate: '2026-04-01', compatibilityFlags: ['nodejs_compat'],
      durableObjects: { PlainAgent: { className: 'PlainAgent', useSQLite: true }, EngineAgent: { className: 'EngineAgent', useSQLite: true } },
    });
    // workerd says it is ready; a minute without that is a start that failed (START_CAP_MS).
    await readyWithin(mf.ready);
  } catch (error) {
    await mf?.dispose().catch(() => undefined);
    rmSync(out, { recursive: true, force: true });
    throw error;
  }
  const worker = mf;
  let agents = 0;
  const ask = async (agent: string, method: string, ...args: unknown[]): Promise<Answer> => {
    const response = await worker.dispatchFetch('http://agents/', { method: 'POST', body: JSON.stringify({ agent, method, args }) });
    if (!response.ok) throw new Error(`workerd answered ${response.status}: ${(await response.text()).slice(0, 300)}`);
    return (await response.json()) as Answer;
  };
  const recipe = (agent: string): RecipeModule => ({
    async open(url) {
      const name = `agent-${(agents += 1)}`;
      const opened = await ask(agent, 'open', name, url);
      if (!opened.ok) throw crossed(opened);
      return {
        callTool: async (tool: string, args: unknown) => {
          const answer = await ask(agent, 'callTool', name, opened.id, tool, args);
          if (!answer.ok) throw crossed(answer);
          return answer.result;
        },
        close: async () => undefined, // the agent's connection ends with workerd (dispose)
      };
    },
  });
  return {
    plain: recipe('PlainAgent'),
    engine: recipe('EngineAgent'),
    async notes() {
      const answer = await ask('PlainAgent', 'open', `agent-${(agents += 1)}`, 'http://10.0.0.1/mcp');
      return { privateAddress: answer.ok ? undefined : `${answer.name}: ${answer.message}` };
    },
    async dispose() {
      await worker.dispose();
      rmSync(out, { recursive: true, force: true });
    },
  };
}
