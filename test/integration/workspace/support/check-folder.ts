import { errorMessage } from '../../../../src-preload/contract/error-message';
import { checkWorkspaceFolder } from '../../../../src-main/core/workspace/workspace-folder';

// Run as another user by workspace-folder.test.ts: prints the checked folder or the refusal, as JSON.
const [given = '', dataDir = ''] = process.argv.slice(2);
checkWorkspaceFolder(given, { dataDir }).then(
  (folder) => process.stdout.write(JSON.stringify({ folder })),
  (err: unknown) => process.stdout.write(JSON.stringify({ error: errorMessage(err) })),
);
