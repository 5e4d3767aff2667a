import type { HandlerTable } from '../bridge/handler-table';
import { Sandbox } from '../exec';
import { userSkillsFolder } from '../agent/skills/skill-discovery';
import type { AppContext } from './app-context';

/** The sandbox as it really is here: the same sentence every sandboxed cell shows, and what it leaves open. */
export const sandboxHandlers = ({
  settings,
  dataDir,
  secretStorage,
}: Pick<AppContext, 'settings'> & Partial<Pick<AppContext, 'dataDir' | 'secretStorage'>>): Pick<HandlerTable, 'sandbox.status'> => ({
  'sandbox.status': async () => {
    const support = await Sandbox.sandboxSupport();
    // As runs get it (app.ts): with the person's skills folder shown read-only and the data folder
    // sealed, so the sentence matches the cells'.
    const given = settings.get().sandbox;
    const sandbox = Sandbox.effectiveSandbox(
      dataDir ? Sandbox.withSealedFolder(Sandbox.withReadableFolder(given, userSkillsFolder(dataDir)), dataDir) : given,
      support,
    );
    return {
      enabled: sandbox.enabled,
      byDefault: !sandbox.chosen,
      available: support.available,
      tool: support.available ? support.tool : null,
      description: Sandbox.describeSandbox(sandbox, support),
      reason: support.available ? null : unavailableReason(support.reason, sandbox.chosen),
      protections: Sandbox.sandboxProtections(sandbox, support),
      notProtected: Sandbox.sandboxGaps(sandbox, support, process.platform, secretStorage !== 'memory'),
      autoRunWarning: Sandbox.autoRunWarning(sandbox, support, process.platform, secretStorage !== 'memory'),
    };
  },
});

/** Answers to the proxy's questions about a host sandboxed code asked for (agent/network-questions.ts). */
export const networkHandlers = ({ network }: Pick<AppContext, 'network'>): Pick<HandlerTable, 'network.answer'> => ({
  'network.answer': async ({ conversationId, questionId, answer }) => {
    // A second click, or an answer after the run ended, changes nothing and is no error.
    network.answer(conversationId, questionId, answer);
    return { ok: true };
  },
});

/** One sentence: why the sandbox is off (or refusing) here, and how to make it work. */
function unavailableReason(reason: string, chosen: boolean): string {
  const state = chosen ? 'The sandbox is on but cannot work here, so nothing runs' : 'The sandbox is off by default here';
  return `${state}: ${reason}. See docs/sandbox.md ("Turning it on") for how to enable it.`;
}
