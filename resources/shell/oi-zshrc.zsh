# Open Interpreter shell integration for zsh, part 2: the .zshrc of every zsh session (see
# oi-zshenv.zsh for what both do and why): reads the user's .zshrc, then gives ZDOTDIR back, strips the
# app's key variables, keeps our lines out of the history and readies the first run.

if [[ -z ${OI_NO_USER_RC-} && -f ${__oi_user_zdotdir:-$HOME}/.zshrc ]]; then
  ZDOTDIR=${__oi_user_zdotdir:-$HOME}
  builtin . "$ZDOTDIR/.zshrc" </dev/null >/dev/null
fi
if [[ -n $__oi_user_zdotdir ]]; then export ZDOTDIR=$__oi_user_zdotdir; else unset ZDOTDIR; fi
for __oi_v in ${(s: :)OI_STRIP_VARS-}; do unset $__oi_v; done; unset __oi_v
unset HISTFILE; SAVEHIST=0
builtin setopt interactive_comments
__oi_rearm
command stty echo -echoctl 2>/dev/null
builtin setopt ignore_eof
PS1=$'\e]633;A\a\e]633;B\a'; PS2=''; RPS1=''; RPS2=''; PROMPT_EOL_MARK=''
unset OI_BOOT_NONCE OI_CELL_FILE OI_NO_USER_RC OI_STRIP_VARS OI_USER_ZDOTDIR OI_STDERR_FD
builtin cd -q -- "${OI_WORKSPACE:-.}" 2>/dev/null
__oi_env_report quiet
