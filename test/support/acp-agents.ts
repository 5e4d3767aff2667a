import path from 'node:path';
import { installLocked } from './locked-tools';

// Outside ACP agents the hosting tests drive for real (docs/acp.md#hosting): Claude Code through
// `@zed-industries/claude-agent-acp`, with the Claude Code CLI it runs (`@anthropic-ai/claude-agent-sdk`'s
// cli.js, plain JavaScript on the app's Node). About 85 MB (ripgrep and other binaries for every
// platform come with the SDK), so it is installed from the lock file in test/acp-agents/ into the test
// tools' cache folder (test/support/locked-tools.ts), not into the repository's node_modules. .ci/run
// installs it before the suite; a test that finds it missing installs it (npm only, about 10 s).

const LOCK_DIR = path.resolve(import.meta.dirname, '..', 'acp-agents');

export interface AcpAgents {
  /** The folder its node_modules is in (the agent's sandbox must be shown it, read-only). */
  dir: string;
  /** claude-agent-acp's entry (run with node): an ACP agent over stdio. */
  claudeAgentAcp: string;
}

export async function acpAgents(): Promise<AcpAgents> {
  const dir = await installLocked(LOCK_DIR, 'acp-agents', 'the ACP agents of the hosting tests');
  return { dir, claudeAgentAcp: path.join(dir, 'node_modules', '@zed-industries', 'claude-agent-acp', 'dist', 'index.js') };
}
