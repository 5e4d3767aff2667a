import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CellItem, Conversation } from '@contract';
import { MemorySettingsStore } from '../../../src-main/core/settings/memory-settings-store';
import { acpAgents, type AcpAgents } from '../../support/acp-agents';
import { CLAUDE_CODE, claudeCodeSecrets, withClaudeCode } from '../../support/claude-code-agent';
import { useCoreApps } from '../../support/core-apps';
import { agentText, hostedConversation } from '../../support/hosted-agent';
import { useScriptedLlms } from '../../support/scripted-llm';

// A real outside agent's own command trying to get out of the workspace (docs/acp.md#hosting, "What an
// outside agent can still do"). Claude Code (claude-agent-acp, installed from npm) runs its Bash tool
// itself, never through terminal/*, so none of our exec engine is around the command: the only thing
// between it and the machine is the sandbox the agent's whole process runs in. The attack: the
// scripted model makes it run one Bash command — after the person's approval card says Run, as a
// person would for an innocent-looking step — that writes a file into a folder outside the workspace
// and reads a secret file there, and reports the mount namespace it and its parent run in. Sandboxed,
// the write and the read fail (that folder is not in the agent's view) and nothing of the secret
// reaches the model; the twin, with the sandbox off, shows the same command writing the file and
// sending the secret to the model. Both show the command is the agent's (no cell of our engine ran it).

const core = useCoreApps('oi-claude-escape-');
const startLlm = useScriptedLlms();
const SECRET = 'the-outside-secret-7f3a';
let agents: AcpAgents;
beforeAll(async () => {
  agents = await acpAgents();
}, 300_000);

const cells = (conv: Conversation): CellItem[] => conv.items.filter((i): i is CellItem => i.kind === 'cell');
const text = (cell: CellItem | undefined): string => (cell?.outputs ?? []).map((o) => (o.output_type === 'stream' ? o.text : '')).join('');

/** One turn in which Claude Code runs the escape command after the approval card; what it left behind. */
async function escape(
  sandbox: boolean,
): Promise<{ said: string; toModel: string; outside: string; conv: Conversation; workspace: string }> {
  const llm = await startLlm();
  const outside = core.tempDir();
  fs.writeFileSync(path.join(outside, 'secret.txt'), `${SECRET}\n`);
  const workspace = path.join(core.tempDir(), 'ws');
  const command = [
    'echo ran > ran.txt',
    `echo escaped > ${outside}/by-bash.txt && echo WROTE-OUTSIDE`,
    `cat ${outside}/secret.txt`,
    'echo "NS self=$(readlink /proc/self/ns/mnt) parent=$(readlink /proc/$PPID/ns/mnt)"',
  ].join('; ');
  llm.enqueue({ kind: 'tool', calls: [{ name: 'Bash', arguments: { command, description: 'tidy up' } }] }, { kind: 'text', text: 'done' });
  // Outside the sandbox Claude Code keeps its settings in $HOME: a folder of the test's, not the person's home.
  const env: Record<string, string> = sandbox ? {} : { HOME: core.tempDir() };
  const app = core.app(new MemorySettingsStore(withClaudeCode(agents, llm.url, { sandbox, env })), await claudeCodeSecrets());
  const host = await hostedConversation(app, workspace, undefined, CLAUDE_CODE);
  host.answers.push('approve');
  const conv = await host.send('tidy up');
  expect(agentText(conv)).toContain('done');
  // The card was shown for the command, and it ran: its write inside the workspace landed.
  expect(host.asked).toHaveLength(1);
  expect(fs.readFileSync(path.join(workspace, 'ran.txt'), 'utf8')).toBe('ran\n');
  // The command is Claude Code's own: the one cell is the agent's tool call, no shell cell of our engine.
  expect(cells(conv).map((c) => c.language)).toEqual(['mcp:acp/execute']);
  const messages = llm.requests.filter((r) => r.path === '/v1/messages');
  expect(messages).toHaveLength(2);
  return { said: text(cells(conv)[0]), toModel: JSON.stringify(messages[1]?.body), outside, conv, workspace };
}

/** The mount namespaces the command reported: its own and its parent process's (in the agent's process tree). */
function namespaces(said: string): { self: string; parent: string } {
  const match = /NS self=(\S+) parent=(\S+)/.exec(said);
  if (!match?.[1] || !match[2]) throw new Error(`the command did not report its namespaces: ${said}`);
  return { self: match[1], parent: match[2] };
}

describe("a hosted Claude Code's own command escaping the workspace", () => {
  const ours = fs.readlinkSync('/proc/self/ns/mnt');

  it('in the sandbox, its write outside the workspace and its read of a secret there fail, and the model sees no secret', async () => {
    const { said, toModel, outside } = await escape(true);
    expect(said).not.toContain('WROTE-OUTSIDE');
    expect(said).toContain('No such file or directory');
    expect(fs.readdirSync(outside)).toEqual(['secret.txt']);
    expect(said).not.toContain(SECRET);
    expect(toModel).not.toContain(SECRET);
    // What held it: the command runs where the agent's process runs (same mount namespace as its
    // parent), and that is not this machine's view — the sandbox around the agent, not around the command.
    const ns = namespaces(said);
    expect(ns.self).toBe(ns.parent);
    expect(ns.self).not.toBe(ours);
  });

  it('twin: with the sandbox off, the same command writes outside the workspace and the secret reaches the model', async () => {
    const { said, toModel, outside } = await escape(false);
    expect(said).toContain('WROTE-OUTSIDE');
    expect(fs.readFileSync(path.join(outside, 'by-bash.txt'), 'utf8')).toBe('escaped\n');
    expect(said).toContain(SECRET);
    expect(toModel).toContain(SECRET);
    expect(namespaces(said)).toEqual({ self: ours, parent: ours });
  });
});
