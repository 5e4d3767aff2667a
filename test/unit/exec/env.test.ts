import { describe, expect, it } from 'vitest';
import { buildEnvironment } from '../../../src-main/core/exec/process/env';

describe('the environment code runs with', () => {
  const base = {
    PATH: '/usr/bin',
    HOME: '/home/u',
    OPENAI_API_KEY: 'sk-from-shell',
    ANTHROPIC_API_KEY: 'sk-ant-x',
    SOME_TOKEN: 'sk-stored-secret-123',
    ELECTRON_RUN_AS_NODE: '1',
    LANG: 'en_GB.UTF-8',
  };

  it('keeps the user environment but drops the app keys and any variable holding a stored secret', () => {
    const env = buildEnvironment({ base, settingsEnv: {}, secretValues: ['sk-stored-secret-123'] });
    expect(env.PATH).toBe('/usr/bin');
    expect(env.HOME).toBe('/home/u');
    expect(env.LANG).toBe('en_GB.UTF-8');
    expect(env).not.toHaveProperty('OPENAI_API_KEY');
    expect(env).not.toHaveProperty('ANTHROPIC_API_KEY');
    expect(env).not.toHaveProperty('SOME_TOKEN');
    expect(env).not.toHaveProperty('ELECTRON_RUN_AS_NODE');
  });

  it('lets settings opt a key in and override anything', () => {
    const env = buildEnvironment({ base, settingsEnv: { OPENAI_API_KEY: 'sk-opted-in', PAGER: 'less' }, secretValues: [] });
    expect(env.OPENAI_API_KEY).toBe('sk-opted-in');
    expect(env.PAGER).toBe('less');
  });

  it('sets a terminal, a UTF-8 locale when none is set, and no pager', () => {
    const env = buildEnvironment({ base: { PATH: '/bin' }, settingsEnv: {}, secretValues: [] });
    expect(env.TERM).toBe('xterm-256color');
    expect(env.LANG).toMatch(/UTF-8$/);
    expect(env.PAGER).toBe('cat');
  });
});
