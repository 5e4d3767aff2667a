import { memoryFile, readMemory, writeMemory } from '../agent/memory';
import type { HandlerTable } from '../bridge/handler-table';
import type { AppContext } from './app-context';

/** Settings → Memory (docs/agent.md#memory): the person reads and edits the notes the model saved. */
export const memoryHandlers = (ctx: Pick<AppContext, 'dataDir'>): Pick<HandlerTable, 'memory.read' | 'memory.write'> => {
  const state = async () => ({ path: memoryFile(ctx.dataDir), text: await readMemory(ctx.dataDir) });
  return {
    'memory.read': state,
    'memory.write': async ({ text }) => {
      await writeMemory(ctx.dataDir, text);
      return state();
    },
  };
};
