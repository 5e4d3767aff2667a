import { MemorySecretStore } from '../core/secrets/memory-secret-store';
import { openSecretStore } from '../core/secrets/open-secret-store';
import type { SecretStore } from '../core/secrets/secret-store';

/** The keychain for a terminal run (`oi`, `oi mcp`); OI_NO_KEYCHAIN=1 keeps keys in memory only. */
export async function openSecrets(env: NodeJS.ProcessEnv): Promise<{ store: SecretStore; notice: string | null }> {
  if (env.OI_NO_KEYCHAIN === '1') return { store: new MemorySecretStore(), notice: null };
  // Shorter than the desktop app's wait: in a terminal a stuck keychain is worse than env keys only.
  const opened = await openSecretStore({ probeTimeoutMs: 10_000 });
  const notice = opened.notice && !hasEnvKey(env) ? 'No OS keychain answered: keys typed here are kept for this run only.' : null;
  return { store: opened.store, notice };
}

function hasEnvKey(env: NodeJS.ProcessEnv): boolean {
  return Object.keys(env).some((k) => k.endsWith('_API_KEY') && !!env[k]);
}
