import { defaultSettings, type HostedAgentSpec, type SandboxSettings, type SettingsPatch } from '@contract';
import { MemorySecretStore } from '../../src-main/core/secrets/memory-secret-store';
import { providerAccount } from '../../src-main/core/secrets/secret-store';
import type { AcpAgents } from './acp-agents';

// Claude Code through claude-agent-acp (test/support/acp-agents.ts) set up as a person sets up the
// preset in Settings → Agents (docs/acp.md#hosting), pointed at the scripted Anthropic server: the
// settings and the keychain the hosting tests share, in the core (claude-code.test.ts, the sandbox
// attack) and in the page (ui-hosted-claude-code.e2e.test.ts).

export const CLAUDE_CODE = 'Claude Code';
/** The app's stored Anthropic key, which the agent gets as ANTHROPIC_API_KEY (`key: anthropic`). */
export const CLAUDE_CODE_KEY = 'sk-ant-scripted-claude-code-0123456789';

/** The agent's entry: `env` adds to (or overrides) the test's variables, e.g. a HOME outside the sandbox. */
export function claudeCodeAgent(agents: AcpAgents, llmUrl: string, env: Record<string, string> = {}): HostedAgentSpec {
  return {
    command: process.execPath,
    args: [agents.claudeAgentAcp],
    env: {
      ANTHROPIC_BASE_URL: llmUrl,
      // No telemetry or update checks (the proxy would refuse them; this keeps the model calls the only traffic).
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      // CI runs as root, where Claude Code starts only when told it is in a sandbox (it is: ours).
      IS_SANDBOX: '1',
      ...env,
    },
    key: 'anthropic',
  };
}

/**
 * The sandbox on, with the agent's files (in the test tools' cache under the home, which the sandbox
 * hides) shown read-only, as a person adds an agent's own folder; `enabled: false` is the sandbox off.
 */
export function claudeCodeSandbox(agents: AcpAgents, enabled = true): SandboxSettings {
  return { ...defaultSettings.sandbox, enabled, chosen: true, extraPaths: [agents.dir] };
}

/** Settings with Claude Code as the agent "Claude Code", sandboxed unless `sandbox` says otherwise. */
export function withClaudeCode(
  agents: AcpAgents,
  llmUrl: string,
  opts: { sandbox?: boolean; env?: Record<string, string> } = {},
): SettingsPatch {
  return {
    sandbox: claudeCodeSandbox(agents, opts.sandbox ?? true),
    agents: { [CLAUDE_CODE]: claudeCodeAgent(agents, llmUrl, opts.env) },
  };
}

/** A keychain holding the Anthropic key the agent is given. */
export async function claudeCodeSecrets(): Promise<MemorySecretStore> {
  const secrets = new MemorySecretStore();
  await secrets.set(providerAccount('anthropic'), CLAUDE_CODE_KEY);
  return secrets;
}
