// Mastra (@mastra/mcp), the recipe of docs/frameworks.md: node mastra.mjs plain|engine URL.
// Its agent calls a tool through `tools.chaos_NAME.execute(args, options)`.
import { capped, importRecipe } from './page-recipe.mjs';
import { runWorkload, skipIfProtected, url } from './workload.mjs';

skipIfProtected('the recipe of docs/frameworks.md gives its client no auth provider');
const { open } = await importRecipe('mastra');
const { tools, close } = await open(url);
const callTool = ({ name, arguments: args }) => capped((abortSignal) => tools[`chaos_${name}`].execute(args, { abortSignal }));
await runWorkload({ listTools: async () => {}, close }, callTool);
