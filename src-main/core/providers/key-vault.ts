import type { EnvSecretSource } from '../secrets/env-secret-source';
import type { SecretResolver } from '../secrets/secret-resolver';
import type { SecretStore } from '../secrets/secret-store';

/** What the keys screen's handlers need: the store to write to, and where the app looks for keys. */
export interface KeyVault {
  store: SecretStore;
  /** Store first, then environment; describe() gives source and last 4, never the value. */
  resolver: SecretResolver;
  env: EnvSecretSource;
  /** Called after a key is saved or removed, so the exec engine's list of values to scrub stays current. */
  changed(): void;
}
