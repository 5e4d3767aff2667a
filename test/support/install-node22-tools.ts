import { node22Tools } from './node22-tools';

// `.ci/run` installs the Node 22 test tools before the suite, so no test spends its time on npm.
const tools = await node22Tools();
process.stdout.write(`Node 22 test tools in ${tools.dir} (node ${tools.node})\n`);
