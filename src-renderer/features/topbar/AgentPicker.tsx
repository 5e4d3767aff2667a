import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

// Who answers the open conversation: our agent, or an outside ACP agent of Settings → Agents
// (docs/acp.md#hosting). Shown once an agent is set up; chosen before the first message only, since
// an agent does not know what another one said. A new conversation exists only once something is
// chosen for it, so choosing an agent creates it (as sending does).

const OURS = '';

export function AgentPicker() {
  // The record itself from the store (a fresh array from a selector would re-render for ever).
  const configured = useApp((s) => s.settings?.agents);
  const conv = useApp((s) => s.current?.conv ?? null);
  const ensureConversation = useApp((s) => s.ensureConversation);
  const reportError = useApp((s) => s.reportError);
  const agents = Object.keys(configured ?? {});
  if (agents.length === 0) return null;
  const started = conv?.items.some((i) => i.kind === 'user') ?? false;
  const choose = async (agent: string) => {
    const conversationId = await ensureConversation();
    const updated = await bridge['conversation.set-agent']({ conversationId, agent: agent === OURS ? null : agent });
    const now = useApp.getState().current;
    if (now?.conv.id === updated.id) useApp.setState({ current: { ...now, conv: { ...now.conv, hostedAgent: updated.hostedAgent } } });
  };
  return (
    <label className="agent-picker" title={started ? 'Chosen before the first message' : 'Who answers this conversation'}>
      <select
        aria-label="Agent"
        value={conv?.hostedAgent?.name ?? OURS}
        disabled={started}
        onChange={(e) => void choose(e.target.value).catch(reportError)}
      >
        <option value={OURS}>Open Interpreter</option>
        {agents.map((name) => (
          <option key={name} value={name}>
            {name} (ACP)
          </option>
        ))}
      </select>
    </label>
  );
}
