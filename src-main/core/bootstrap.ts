import { createApp, type App } from './app';
import type { AgentService } from './agent/agent-service';
import { withAutoInstall } from './exec';
import { createExecService } from './exec';
import { kernelAccount } from './exec';
import { RemoteKernels } from './exec';
import { createSessionRouter } from './exec';
import type { KnownSecret } from './exec';
import { withSandboxSetting } from './exec';
import { EnvSecretSource } from './secrets/env-secret-source';
import { SecretResolver } from './secrets/secret-resolver';
import type { SecretStore } from './secrets/secret-store';
import type { SettingsStore } from './settings/settings-store';
import type { LocalServerSpec } from './providers/local-servers';

export interface BootstrapOptions {
  dataDir: string;
  settings: SettingsStore;
  secrets: SecretStore;
  /** Folder holding runners/ (resources/ in the repo, process.resourcesPath in the packaged app). */
  resourcesDir: string;
  version: string;
  /** Environment variables that may hold provider keys (read-only source after the keychain). */
  env?: NodeJS.ProcessEnv;
  notices?: string[];
  /** Where first run looks for local model servers (tests point this at a scripted server). */
  localServers?: LocalServerSpec[];
}

/** Builds the app from real parts: the same wiring for the desktop shell, browser mode and the CLI. */
export function bootstrapApp(opts: BootstrapOptions): App {
  const envKeys = new EnvSecretSource(opts.env ?? process.env);
  const keys = new SecretResolver(opts.secrets, envKeys);
  // The exec engine strips these values from the code's environment and redacts them from what runs
  // give back; it asks synchronously at spawn time, so keep a snapshot that is refreshed when keys change.
  let secrets: KnownSecret[] = [];
  const refreshSecretValues = () => keys.allSecrets().then((v) => void (secrets = v));
  void refreshSecretValues().catch(() => undefined);
  // Remote kernels: their tokens live in the keychain under kernel:<url>.
  const kernels = new RemoteKernels({ tokenFor: (url) => opts.secrets.get(kernelAccount(url)) });
  const engine = createExecService({ resourcesDir: opts.resourcesDir, secrets: () => secrets, router: createSessionRouter({ remote: kernels }) });
  // A run that fails on a missing package asks the user (through the agent, like a cell approval),
  // installs it and runs the cell again. The agent exists only once the app is built, hence the late binding.
  let agent: AgentService | null = null;
  // Outermost: the sandbox setting reaches every run (and every install), whoever asks for it.
  const exec = withSandboxSetting(
    withAutoInstall(engine, {
      approve: (question) => agent?.askInstall(question) ?? Promise.resolve(false),
      onInstall: (record, request) => agent?.recordInstall(request.conversationId, record),
      secrets: () => secrets,
    }),
    () => opts.settings.get().sandbox,
  );
  const notices = [...(opts.notices ?? []), ...(opts.settings.notice ? [opts.settings.notice] : [])];
  const keyVault = { store: opts.secrets, resolver: keys, env: envKeys, changed: () => void refreshSecretValues().catch(() => undefined) };
  const app = createApp({
    dataDir: opts.dataDir,
    settings: opts.settings,
    keys,
    exec,
    version: opts.version,
    secretStorage: opts.secrets.kind,
    notices,
    keyVault,
    kernels,
    localServers: opts.localServers,
  });
  agent = app.context.agent;
  return app;
}
