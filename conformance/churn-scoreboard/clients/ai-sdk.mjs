// The Vercel AI SDK (@ai-sdk/mcp), the recipe of docs/frameworks.md: node ai-sdk.mjs plain|engine URL.
// Its agent calls a tool through `tools[name].execute(args, options)`.
import { capped, importRecipe } from './page-recipe.mjs';
import { runWorkload, skipIfProtected, url } from './workload.mjs';

skipIfProtected('the recipe of docs/frameworks.md gives its client no auth provider');
const { open } = await importRecipe('ai-sdk');
const { tools, close } = await open(url);
const callTool = ({ name, arguments: args }) => capped((abortSignal) => tools[name].execute(args, { toolCallId: name, messages: [], abortSignal }));
await runWorkload({ listTools: async () => {}, close }, callTool);
