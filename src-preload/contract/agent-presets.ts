import type { HostedAgentSpec } from './hosted-agents';

// Command lines Settings → Agents offers for the ACP agents people use most. The app ships none of
// them: the person installs the agent (the hint says how), then adds the preset.

export interface AgentPreset {
  name: string;
  spec: HostedAgentSpec;
  install: string;
}

/** OpenAI's API, where the Codex preset sends its model calls. */
export const OPENAI_API_URL = 'https://api.openai.com/v1';

export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    name: 'Claude Code',
    spec: { command: 'claude-agent-acp', args: [], env: {}, key: 'anthropic' },
    install: 'npm install -g @zed-industries/claude-agent-acp',
  },
  {
    name: 'Codex',
    // Codex's own "openai" provider waits for an ACP `authenticate` this host does not send ("Authentication
    // required" at the first prompt); a provider named in its arguments reads the stored key from
    // OPENAI_API_KEY (`key: 'openai'`) and speaks the Responses API. OPENAI_BASE_URL names its address
    // for the sandbox's proxy, which lets an agent reach the URLs among its variables. Tested in this
    // shape against the scripted server (test/integration/acp/codex.test.ts).
    spec: {
      command: 'codex-acp',
      args: [
        '-c',
        'model_provider="oi-openai"',
        '-c',
        `model_providers.oi-openai={ name="OpenAI", base_url="${OPENAI_API_URL}", env_key="OPENAI_API_KEY", wire_api="responses" }`,
      ],
      env: { OPENAI_BASE_URL: OPENAI_API_URL },
      key: 'openai',
    },
    install: 'npm install -g @zed-industries/codex-acp',
  },
  {
    name: 'goose',
    spec: { command: 'goose', args: ['acp'], env: {}, key: null },
    install: 'https://block.github.io/goose/ (the goose CLI)',
  },
  {
    name: 'Gemini CLI',
    spec: { command: 'gemini', args: ['--experimental-acp'], env: {}, key: null },
    install: 'npm install -g @google/gemini-cli',
  },
];
