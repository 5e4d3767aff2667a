import type { HostedAgentSpec } from './hosted-agents';

// Command lines Settings → Agents offers for the ACP agents people use most. The app ships none of
// them: the person installs the agent (the hint says how), then adds the preset.

export interface AgentPreset {
  name: string;
  spec: HostedAgentSpec;
  install: string;
}

export const AGENT_PRESETS: readonly AgentPreset[] = [
  {
    name: 'Claude Code',
    spec: { command: 'claude-agent-acp', args: [], env: {}, key: 'anthropic' },
    install: 'npm install -g @zed-industries/claude-agent-acp',
  },
  {
    name: 'Codex',
    spec: { command: 'codex-acp', args: [], env: {}, key: 'openai' },
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
