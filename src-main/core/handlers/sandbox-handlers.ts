import type { HandlerTable } from '../bridge/handler-table';
import { autoRunWarning, describeSandbox, sandboxGaps, sandboxProtections } from '../exec';
import { sandboxSupport } from '../exec';
import type { AppContext } from './app-context';

/** The sandbox as it really is here: the same sentence every sandboxed cell shows, and what it leaves open. */
export const sandboxHandlers = ({ settings }: Pick<AppContext, 'settings'>): Pick<HandlerTable, 'sandbox.status'> => ({
  'sandbox.status': async () => {
    const sandbox = settings.get().sandbox;
    const support = await sandboxSupport();
    return {
      enabled: sandbox.enabled,
      available: support.available,
      tool: support.available ? support.tool : null,
      description: describeSandbox(sandbox, support),
      reason: support.available ? null : support.reason,
      protections: sandboxProtections(sandbox, support),
      notProtected: sandboxGaps(sandbox, support),
      autoRunWarning: autoRunWarning(sandbox, support),
    };
  },
});
