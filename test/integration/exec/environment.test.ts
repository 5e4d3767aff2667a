import { describe, expect, it } from 'vitest';
import { stdoutOf, useHarness } from '../../support/exec-harness';

describe('environment of code', () => {
  const h = useHarness({
    baseEnv: { ...process.env, OPENAI_API_KEY: 'sk-user-shell-key', STORED_COPY: 'sk-app-stored-secret', VISIBLE: 'yes' },
    secretValues: () => ['sk-app-stored-secret'],
  });

  it('never hands the app API keys to shell code', async () => {
    const result = await h.run('bash', 'echo "${OPENAI_API_KEY-unset} ${STORED_COPY-unset} $VISIBLE"');
    expect(stdoutOf(result)).toBe('unset unset yes\n');
  });

  it('never hands them to Python code either, and adds variables from settings', async () => {
    const result = await h.run('python', 'import os\nprint(os.environ.get("OPENAI_API_KEY"), os.environ.get("FROM_SETTINGS"))', {
      settings: { env: { FROM_SETTINGS: 'set' } },
    });
    expect(stdoutOf(result)).toBe('None set\n');
  });
});
