import { acpAgents } from './acp-agents';

// `.ci/run` installs the outside ACP agents before the suite, so no test spends its time on npm.
const agents = await acpAgents();
process.stdout.write(`ACP agents for the hosting tests in ${agents.dir}\n`);
