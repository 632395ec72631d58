// LangChain.js (@langchain/mcp-adapters), the recipes of docs/frameworks.md: node langchain.mjs plain|engine URL.
// Plain is `MultiServerMCPClient` (it takes no fetch), with the engine `loadMcpTools` on connect()'s
// client. Its agent calls a tool through `tool.invoke(args)`, which gives the text.
import { capped, importRecipe } from './page-recipe.mjs';
import { runWorkload, skipIfProtected, skipUnless, url } from './workload.mjs';

skipUnless(['2025-11-25'], 'LangChain (on the SDK 1.x client)');
skipIfProtected('the recipe of docs/frameworks.md gives its client no auth provider');
const { open } = await importRecipe('langchain');
const { tools, close } = await open(url);
const callTool = async ({ name, arguments: args }) => {
  const text = await capped((signal) => tools.find((tool) => tool.name === name).invoke(args, { signal }));
  return { content: [{ type: 'text', text: typeof text === 'string' ? text : JSON.stringify(text) }] };
};
await runWorkload({ listTools: async () => {}, close }, callTool);
