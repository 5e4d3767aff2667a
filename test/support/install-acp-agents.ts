import { acpAgents, codexAcp } from './acp-agents';

// `.ci/run` installs the outside ACP agents before the suite, so no test spends its time on npm.
const agents = await acpAgents();
process.stdout.write(`ACP agents for the hosting tests in ${agents.dir}\n`);
const codex = await codexAcp();
process.stdout.write(`Codex (codex-acp) for the hosting tests in ${codex.dir}\n`);
