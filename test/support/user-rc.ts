/**
 * The suite runs with OI_NO_USER_RC=1 (vitest.config.ts): a shell cell then skips the person's rc
 * files, which on these machines start ~300 programs per shell (pyenv's init). A test that is about
 * the rc files — that a home's .bashrc or .zshrc is read, stripped of keys, or hidden by the sandbox —
 * starts its sessions with this environment instead, so it still proves what it says.
 */
export function envReadingUserRc(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const { OI_NO_USER_RC: _skipped, ...rest } = env;
  return rest;
}
