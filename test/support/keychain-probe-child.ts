// Run in a child process by open-secret-store.test.ts, with the environment that test chooses.
import { openSecretStore } from '../../src-main/core/secrets/open-secret-store';

const { store, notice, reason } = await openSecretStore();
await store.set('provider:openai', 'sk-child-test-key');
process.stdout.write(JSON.stringify({ kind: store.kind, notice, reason, readBack: await store.get('provider:openai') }));
