import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { installScript, type ShellFlavor } from './shell-flavor';

// The zsh side of shell integration (bash's is shell-integration.ts): the same OSC 633 sequences
// and fence, from zsh's own hooks. zsh reads its rc files from $ZDOTDIR, so the session points
// ZDOTDIR at a private folder holding our .zshenv and .zshrc: resources/shell/oi-zshenv.zsh and
// oi-zshrc.zsh, where what they do and why is written.

/** How the typed line starts; preexec recognises it and takes the nonce that follows. */
const RUN_PREFIX = ' { __oi_begin ';

/** The two rc files under the app's resources folder, and the names zsh reads them by. */
export const ZSH_RC_FILES = [
  { resource: join('shell', 'oi-zshenv.zsh'), name: '.zshenv' },
  { resource: join('shell', 'oi-zshrc.zsh'), name: '.zshrc' },
] as const;

/** preexec finds this run's nonce after RUN_PREFIX in the typed line: the script and this file must agree. */
function runPrefixProblem(zshenv: string): string | null {
  return zshenv.includes(`'${RUN_PREFIX}'`) ? null : `does not recognise the typed line's start ('${RUN_PREFIX}') of zsh-integration.ts`;
}

/** The line main types into zsh to run the cell file with this run's nonce. */
export function zshRunLine(nonce: string): string {
  return `\x15${RUN_PREFIX}${nonce} } 2>/dev/null; eval "$__oi_code" 2>&$__oi_errfd; { __oi_rearm } 2>/dev/null\r`;
}

/** zsh as ShellSession starts it: interactive, not a login shell, rc files from our ZDOTDIR. */
export const zshFlavor: ShellFlavor = {
  label: 'zsh',
  program: 'zsh',
  rcHint: '~/.zshrc',
  async prepare(dir, env, resourcesDir) {
    const zdotdir = join(dir, 'zdotdir');
    await mkdir(zdotdir, { mode: 0o700 });
    for (const file of ZSH_RC_FILES)
      await installScript(resourcesDir, file.resource, join(zdotdir, file.name), file.name === '.zshenv' ? runPrefixProblem : undefined);
    return { args: ['-i'], env: { ZDOTDIR: zdotdir, OI_USER_ZDOTDIR: env.ZDOTDIR ?? '' } };
  },
  runLine: zshRunLine,
};
