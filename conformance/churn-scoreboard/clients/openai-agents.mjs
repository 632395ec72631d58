// The OpenAI Agents SDK (@openai/agents), the recipe of docs/frameworks.md: node openai-agents.mjs plain|engine URL.
// Its agent lists the tools with `server.listTools()` and calls one with `server.callTool(name, args)`, which gives the content.
import { capped, importRecipe } from './page-recipe.mjs';
import { runWorkload, skipIfProtected, url } from './workload.mjs';

skipIfProtected('the recipe of docs/frameworks.md gives its client no auth provider');
const { open } = await importRecipe('openai-agents');
const { server, close } = await open(url);
const callTool = async ({ name, arguments: args }) => ({ content: await capped(() => server.callTool(name, args)) });
await runWorkload({ listTools: () => server.listTools(), close }, callTool);
