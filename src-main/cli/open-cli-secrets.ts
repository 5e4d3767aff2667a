import { MemorySecretStore } from '../core/secrets/memory-secret-store';
import { openSecretStore } from '../core/secrets/open-secret-store';
import type { SecretStore } from '../core/secrets/secret-store';

/** The keychain for a terminal run (`oi`, `oi mcp`); OI_NO_KEYCHAIN=1 keeps keys in memory only. */
export async function openSecrets(env: NodeJS.ProcessEnv, notices: string[]): Promise<SecretStore> {
  if (env.OI_NO_KEYCHAIN === '1') return new MemorySecretStore();
  // Shorter than the desktop app's wait: in a terminal a stuck keychain is worse than env keys only.
  const opened = await openSecretStore({ probeTimeoutMs: 10_000 });
  if (opened.notice && !hasEnvKey(env)) notices.push('No OS keychain answered: keys typed here are kept for this run only.');
  return opened.store;
}

function hasEnvKey(env: NodeJS.ProcessEnv): boolean {
  return Object.keys(env).some((k) => k.endsWith('_API_KEY') && !!env[k]);
}
