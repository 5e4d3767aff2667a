# Open Interpreter shell integration for zsh, part 1: the .zshenv of every zsh session, copied with
# oi-zshrc.zsh into the session's private ZDOTDIR at start (src-main/core/exec/shell/zsh-integration.ts)
# and deleted with it. Checked with `zsh -n` (ShellCheck does not read zsh).
#
# The zsh side of shell integration (bash's is oi-rc.bash): the same OSC 633 sequences
# and fence, from zsh's own hooks. zsh reads its rc files from $ZDOTDIR, so the session points
# ZDOTDIR at a private folder holding our .zshenv and .zshrc; those read the user's files and
# then install the hooks:
# - precmd prints `633;P;Cwd=…`, `633;D;<exit>` and the fence `633;P;OiFence=<nonce>`; PS1 is just
#   `633;A` (prompt start) and `633;B` (command start); `__oi_begin`, the typed line's first
#   command, prints `633;C` (executed), after which main may send its Ctrl-C. Not preexec: zsh
#   puts back the `$?` from before a hook when the hook returns, so a Ctrl-C landing in preexec
#   abandoned the line and precmd reported the previous run's status (often 0: "done" for a run
#   that never ran). Landing in `__oi_begin` or later, it leaves 130. preexec still takes the
#   run's nonce from the typed line, so a Ctrl-C typed before the mark ends in the right fence.
# - Which files are read mirrors bash (`--noprofile` + our rc that sources ~/.bashrc): an
#   interactive, non-login zsh reads /etc/zshenv, the user's .zshenv, the global zshrc and the
#   user's .zshrc (from the user's own ZDOTDIR, else HOME), and no login files (.zprofile,
#   .zlogin). OI_NO_USER_RC skips the user's files for both shells. Afterwards ZDOTDIR is the
#   user's again, so a zsh started by a cell reads the user's files, not ours.
# - The user's files are read with stdin and stdout on /dev/null (what they print at start is
#   dropped anyway): setups that ask a question only on a terminal (oh-my-zsh's "Would you like to
#   update? [Y/n]" checks `-t 1`) stay quiet, and a plain `read` gets end of input at once instead
#   of waiting on our terminal until the boot times out. A question asked of the terminal itself
#   (zsh's `read -q`) still waits, as it would in bash.
# - Our functions are defined in .zshenv, before any user file, so the user's aliases cannot
#   change them. Their bodies run with stderr on /dev/null, which also keeps `set -x` traces of
#   them out of the run's output (zsh calls hooks without the redirections of a function's
#   definition, so the hooks' bodies are wrapped in `{ … } 2>/dev/null`).
# - Hooks the user's files or cells add to precmd_functions/preexec_functions are moved into our
#   own lists and called from our hooks with their output discarded (bash runs the user's
#   PROMPT_COMMAND silenced the same way); ours stay the only entries. Unlike bash's read-only
#   PROMPT_COMMAND, this lets cells add hooks (`add-zsh-hook`, direnv, pyenv-virtualenv), and a
#   cell that empties the arrays gets ours back right after it, before precmd (the typed line
#   ends with `__oi_rearm`, which keeps the cell's exit status). Not `{ eval … } always { … }`,
#   which would hold job numbers: `cmd &` in a cell would be job [3] instead of [2] (eval itself is
#   job 1 in zsh, as in any zsh that evals or sources code).
# - After each cell, errexit is reset (as in bash) and so are the options that would print into
#   the next run's output or wait on the terminal: PROMPT_SP/PROMPT_CR (the `%` mark after output
#   without a final newline, printed before precmd), CORRECT (the "correct 'x' to 'y' [nyae]?"
#   question), RM_STAR_SILENT unset (the "sure you want to delete all the files?" question),
#   CHECK_JOBS (`exit` refused once while jobs run), ZLE (no line editor: main types whole lines).
# - The cell is read by `$(<file)`, which zsh does without a fork, and eval'd at top level with
#   stdin on the terminal, exactly as bash does (echo, Ctrl-D and leftover input as described in
#   oi-rc.bash); the history file is unset so our typed lines
#   never reach the user's history.

__oi_nonce=${OI_BOOT_NONCE-}
# A cell's stderr goes to a terminal of its own, read by main apart from stdout (as in oi-rc.bash):
# fd 9 at start, moved to a free fd of zsh's choosing; without it stderr stays on fd 2.
__oi_errfd=2
if [[ ${OI_STDERR_FD-} == 9 ]] && { true >&9 } 2>/dev/null; then exec {__oi_errfd}>&9 9>&-; fi
__oi_cell=${OI_CELL_FILE-}
__oi_zdotdir=$ZDOTDIR
__oi_user_zdotdir=${OI_USER_ZDOTDIR-}
typeset -a __oi_user_precmd __oi_user_preexec
__oi_status() { return $1 }
__oi_precmd() {
  {
    local __oi_ec=$? __oi_h
    builtin unsetopt err_exit err_return
    {
      for __oi_h in "${__oi_user_precmd[@]}"; do
        if (( ${+functions[$__oi_h]} )); then __oi_status $__oi_ec; "$__oi_h"; fi
      done </dev/null >/dev/null 2>&1
    } always {
      __oi_report $__oi_ec
      __oi_idle_int
    }
  } 2>/dev/null
}
__oi_report() {
  emulate -L zsh
  local cwd=$PWD
  while builtin read -t 0 -r cwd; do :; done
  cwd=$PWD
  cwd=${cwd//\\/\\x5c}; cwd=${cwd//;/\\x3b}; cwd=${cwd//$'\a'/\\x07}; cwd=${cwd//$'\e'/\\x1b}; cwd=${cwd//$'\n'/\\x0a}
  PS1=$'\e]633;A\a\e]633;B\a'; PS2=''; RPS1=''; RPS2=''; PROMPT_EOL_MARK=''
  # The stderr terminal's own fence first: everything the cell wrote there came before it.
  # (fd 2 is /dev/null in here: without a stderr terminal the fence goes with the others on fd 1.)
  { true >&$__oi_errfd } 2>/dev/null || __oi_errfd=2
  local efd=$__oi_errfd; [[ $efd == 2 ]] && efd=1
  builtin printf '\e]633;P;OiErrFence=%s\a' "$__oi_nonce" >&$efd
  __oi_env_report
  builtin printf '\e]633;P;Cwd=%s\a\e]633;D;%s\a\e]633;P;OiFence=%s\a' "$cwd" "$1" "$__oi_nonce"
} 2>/dev/null
# Exported variables a run set, changed or unset, reported as bash does (oi-rc.bash); `quiet`
# records the environment the session started with.
typeset -gA __oi_env_seen
__oi_env_report() {
  emulate -L zsh
  local n v out=
  local -A now
  for n in ${(k)parameters[(R)*export*]}; do
    case $n in (__oi_*|PWD|OLDPWD|SHLVL|_) continue;; esac
    now[$n]=1
    v=${(P)n}
    [[ ${+__oi_env_seen[$n]} == 1 && ${__oi_env_seen[$n]} == "$v" ]] && continue
    __oi_env_seen[$n]=$v
    [[ -n ${1-} ]] && continue
    v=${v//\\/\\x5c}; v=${v//;/\\x3b}; v=${v//$'\a'/\\x07}; v=${v//$'\e'/\\x1b}; v=${v//$'\n'/\\x0a}; v=${v//$'\r'/\\x0d}
    out+=$'\e]633;P;OiEnv='"$n=$v"$'\a'
  done
  for n in ${(k)__oi_env_seen}; do
    (( ${+now[$n]} )) && continue
    unset "__oi_env_seen[$n]"
    [[ -n ${1-} ]] || out+=$'\e]633;P;OiEnvUnset='"$n"$'\a'
  done
  builtin printf '%s' "$out"
} 2>/dev/null
# A Ctrl-C reaching zsh while it waits for the next line (main's ^C arriving just after a run ended,
# or a kill -INT from elsewhere) makes zsh without ZLE throw away the next line it reads: the next
# run's typed line, which would then never start. So SIGINT is ignored from the fence until preexec
# (main sends its ^C only after `633;C`), unless the user set an INT trap of their own, which stays.
# Not in __oi_report: `emulate -L` makes traps local to the function.
__oi_idle_int() {
  [[ -n ${__oi_int_ignored-} ]] && return
  (( ${+functions[TRAPINT]} )) && return
  builtin trap >| "$__oi_zdotdir/.oi-traps" || return
  [[ $(<"$__oi_zdotdir/.oi-traps") == *' INT'* ]] && return
  builtin trap '' INT
  __oi_int_ignored=1
}
__oi_preexec() {
  {
    local __oi_h
    if [[ -n ${__oi_int_ignored-} ]]; then builtin trap - INT; __oi_int_ignored=; fi
    __oi_take_nonce "$1"
    for __oi_h in "${__oi_user_preexec[@]}"; do
      if (( ${+functions[$__oi_h]} )); then "$__oi_h" "$@"; fi
    done </dev/null >/dev/null 2>&1
  } 2>/dev/null
}
# The typed line starts with RUN_PREFIX of zsh-integration.ts (checked when the file is loaded).
__oi_take_nonce() {
  emulate -L zsh
  if [[ $1 == ' { __oi_begin '* ]]; then __oi_nonce=${${1#' { __oi_begin '}%%[^0-9a-f]*}; fi
} 2>/dev/null
__oi_begin() {
  __oi_nonce=$1
  __oi_code=$(<"$__oi_cell")
  # A cell that closed the stderr terminal's fd writes its stderr to fd 2 from then on.
  { true >&$__oi_errfd } 2>/dev/null || __oi_errfd=2
  # The start mark, last: main's Ctrl-C from here on lands in a command of the line (see the top).
  builtin printf '\e]633;C\a'
} 2>/dev/null
__oi_adopt_hooks() {
  emulate -L zsh
  local h
  for h in $precmd_functions; do [[ $h == __oi_precmd ]] || (( ${__oi_user_precmd[(Ie)$h]} )) || __oi_user_precmd+=($h); done
  for h in $preexec_functions; do [[ $h == __oi_preexec ]] || (( ${__oi_user_preexec[(Ie)$h]} )) || __oi_user_preexec+=($h); done
  precmd_functions=(__oi_precmd)
  preexec_functions=(__oi_preexec)
} 2>/dev/null
__oi_rearm() {
  local s=$?
  builtin unsetopt err_exit err_return prompt_sp prompt_cr correct correct_all check_jobs zle
  builtin setopt rm_star_silent
  __oi_adopt_hooks
  return $s
} 2>/dev/null
if [[ -z ${OI_NO_USER_RC-} && -f ${__oi_user_zdotdir:-$HOME}/.zshenv ]]; then
  ZDOTDIR=${__oi_user_zdotdir:-$HOME}
  builtin . "$ZDOTDIR/.zshenv" </dev/null >/dev/null
  # The user's .zshenv may move ZDOTDIR (to ~/.config/zsh, say): their .zshrc is there.
  [[ $ZDOTDIR == ${HOME-} ]] || __oi_user_zdotdir=$ZDOTDIR
  ZDOTDIR=$__oi_zdotdir
fi
