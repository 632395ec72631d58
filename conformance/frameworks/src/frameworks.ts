import { startWorkerdRecipes } from './cloudflare/workerd-recipes.ts';
import type { RecipeModule } from './recipe-module.ts';

/** What a recipe's `open(url)` gave: the framework's tools (or server) and its `close()`. */
export type Opened = { close(): Promise<unknown> } & Record<string, unknown>;

/** The page's two recipes where the framework runs; `notes` are what the framework's own checks found there. */
export interface LoadedRecipes {
  readonly plain: RecipeModule;
  readonly engine: RecipeModule;
  notes?(): Promise<Record<string, string | undefined>>;
  dispose(): Promise<void>;
}

/** A framework the page has a recipe for, and how an agent of that framework calls a tool with what the recipe gave. */
export interface Framework {
  /** The recipe's name on the page (`<!-- recipe: NAME -->`, `<!-- table: NAME -->`). */
  readonly name: string;
  /** As the page titles it. */
  readonly title: string;
  /** The packages the recipe uses, at the versions pinned in package.json. */
  readonly packages: readonly string[];
  /**
   * Loads the page's two recipes where the framework runs (default: imported into this Node
   * process); `dispose` ends that place.
   */
  load?(codes: { readonly plain: string; readonly engine: string }): Promise<LoadedRecipes>;
  /** Calls the chaos server's `echo` tool the way the framework's agent does, and gives the text it answered. */
  callEcho(opened: Opened, text: string): Promise<unknown>;
}

type ToolRecord = Record<string, { execute(args: unknown, options?: unknown): Promise<unknown> } | undefined>;
type ToolList = readonly { name: string; invoke(args: unknown): Promise<unknown> }[];

function tool<T>(found: T | undefined, name: string): T {
  if (!found) throw new TypeError(`the recipe gave no ${name} tool`);
  return found;
}

/**
 * The frameworks of docs/frameworks.md, each with the way its agents call a tool: the AI SDK's
 * `tool.execute`, Mastra's `tool.execute`, LangChain's `tool.invoke`, the OpenAI Agents SDK's
 * `server.callTool` (what its MCP function tools call), a Cloudflare agent's `this.mcp.callTool`
(inside workerd).
 *
 * @example
 * const answer = await FRAMEWORKS.find((f) => f.name === 'ai-sdk')!.callEcho(opened, 'hello');
 */
export const FRAMEWORKS: readonly Framework[] = [
  {
    name: 'ai-sdk', title: 'Vercel AI SDK', packages: ['@ai-sdk/mcp'],
    callEcho: (opened, text) => tool((opened.tools as ToolRecord).echo, 'echo').execute({ text }, { toolCallId: 'call', messages: [] }),
  },
  {
    name: 'mastra', title: 'Mastra', packages: ['@mastra/mcp'],
    callEcho: (opened, text) => tool((opened.tools as ToolRecord).chaos_echo, 'chaos_echo').execute({ text }, {}),
  },
  {
    name: 'langchain', title: 'LangChain.js', packages: ['@langchain/mcp-adapters'],
    callEcho: (opened, text) => tool((opened.tools as ToolList).find((t) => t.name === 'echo'), 'echo').invoke({ text }),
  },
  {
    name: 'openai-agents', title: 'OpenAI Agents SDK', packages: ['@openai/agents'],
    callEcho: (opened, text) => (opened.server as { callTool(name: string, args: unknown): Promise<unknown> }).callTool('echo', { text }),
  },
  {
    name: 'cloudflare-agents', title: 'Cloudflare Agents', packages: ['agents'],
    load: startWorkerdRecipes,
    callEcho: (opened, text) => (opened.callTool as (name: string, args: unknown) => Promise<unknown>)('echo', { text }),
  },
];
