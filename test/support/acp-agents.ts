import path from 'node:path';
import { installLocked } from './locked-tools';

// Outside ACP agents the hosting tests drive for real (docs/acp.md#hosting): Claude Code through
// `@zed-industries/claude-agent-acp`, with the Claude Code CLI it runs (`@anthropic-ai/claude-agent-sdk`'s
// cli.js, plain JavaScript on the app's Node). About 85 MB (ripgrep and other binaries for every
// platform come with the SDK), so it is installed from the lock file in test/acp-agents/ into the test
// tools' cache folder (test/support/locked-tools.ts), not into the repository's node_modules. .ci/run
// installs it before the suite; a test that finds it missing installs it (npm only, about 10 s).

const LOCK_DIR = path.resolve(import.meta.dirname, '..', 'acp-agents');
// Codex through `@zed-industries/codex-acp`: a native binary of about 225 MB (one optional dependency per
// platform, npm picks this one's), in a lock of its own so the Claude Code tests do not wait for it.
const CODEX_LOCK_DIR = path.join(LOCK_DIR, 'codex');

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

export interface CodexAcp {
  /** The folder its node_modules is in (the agent's sandbox must be shown it, read-only). */
  dir: string;
  /** codex-acp's launcher (run with node), which starts this platform's binary: an ACP agent over stdio. */
  codexAcp: string;
}

export async function codexAcp(): Promise<CodexAcp> {
  const dir = await installLocked(CODEX_LOCK_DIR, 'acp-agent-codex', 'Codex (codex-acp) for the hosting tests');
  return { dir, codexAcp: path.join(dir, 'node_modules', '@zed-industries', 'codex-acp', 'bin', 'codex-acp.js') };
}
