# shellcheck shell=bash
# Open Interpreter shell integration for bash: the rc file of every bash session, copied into the
# session's private folder at start (src-main/core/exec/shell/shell-integration.ts) and deleted with it.
#
# An rc file that makes an interactive bash report, after every
# command line, its cwd, exit code and the run's fence as OSC 633 sequences (the family VS Code's
# terminal uses), and a short line that main types to run a cell.
#
# Why these choices:
# - The cell's code is read from a file by a builtin (`read -d ''`, no fork) and eval'd at top
#   level, so cd, exports, functions and variables persist exactly as if typed, and the code never
#   passes through the terminal (no echo of it, no line-length limit, no quoting).
# - stdin of the code is the terminal, as in any shell: a program that waits for input there (read,
#   sudo, apt's [Y/n]) is noticed by main, which asks the person or ends the input with Ctrl-D at
#   once (docs/exec.md#input). Terminal echo is on, as for a person, so an answer shows where it
#   was typed and a program that reads a secret (echo off) is recognised; the echo of the line main
#   types is dropped with everything before the `633;C` start mark. ECHOCTL is off so main's Ctrl-C
#   does not print "^C" into the output (ShellSession drops the bare ETX byte it echoes instead).
# - Input typed for a program that ended before reading it must not run as the next command: the
#   prompt hook reads away whole lines (and a Ctrl-D) left in the terminal before the fence, the
#   typed line starts with Ctrl-U (erase a partial line), and IGNOREEOF keeps a late Ctrl-D from
#   ending the shell.
# - PS1/PS2 are empty so no prompt text mixes into output. The user's own PROMPT_COMMAND (pyenv,
#   direnv hooks) still runs, silenced.
# - The app's key variables are unset again after ~/.bashrc, which may export them itself.
# - PROMPT_COMMAND is read-only afterwards: code that replaced it would silence every later fence
#   and each run would hang until its timeout.
# - errexit (set -e) is reset after each run: left on, the next failing command would end the shell.
# - `jobs -n` before the fence: bash reports finished or killed jobs lazily, at a later command;
#   asking now attributes "[1]+ Killed …" to the run it belongs to.

# The user's own rc is theirs to lint.
# shellcheck source=/dev/null
if [ -z "${OI_NO_USER_RC-}" ] && [ -f "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
for __oi_v in ${OI_STRIP_VARS-}; do unset "$__oi_v"; done; unset __oi_v
__oi_user_pc="${PROMPT_COMMAND[*]-}"
unset PROMPT_COMMAND
set +o history
stty echo -echoctl 2>/dev/null
IGNOREEOF=1000000
PS1=''; PS2=''; PS0=''; PS4='+ '
__oi_nonce="${OI_BOOT_NONCE-}"
__oi_cell="${OI_CELL_FILE-}"
# A cell's stderr goes to a terminal of its own, which main reads apart from stdout: the shell is
# started with it open as fd 9 (OI_STDERR_FD), moved here to a free fd of bash's choosing so a cell's
# own `exec 9>lock` cannot take it. Without it (no second terminal), stderr stays on fd 2.
__oi_errfd=2
if [ "${OI_STDERR_FD-}" = 9 ] && { true >&9; } 2>/dev/null; then
  # `{var}>` is bash 4.1+; macOS's bash 3.2 keeps fd 9.
  if ((BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 1))); then eval 'exec {__oi_errfd}>&9 9>&-'; else __oi_errfd=9; fi
fi
unset OI_BOOT_NONCE OI_CELL_FILE OI_NO_USER_RC OI_STRIP_VARS OI_STDERR_FD
# A workspace that is gone leaves the shell where it started; the first run reports its cwd.
cd -- "${OI_WORKSPACE:-.}" 2>/dev/null || true
__oi_prompt() {
  local __oi_ec=$? __oi_cwd
  set +e
  jobs -n
  if [ -n "$__oi_user_pc" ]; then eval "$__oi_user_pc" >/dev/null 2>&1; fi
  while read -r -t 0 2>/dev/null; do IFS= read -r __oi_cwd || break; done
  __oi_cwd=${PWD//\\/\\x5c}; __oi_cwd=${__oi_cwd//;/\\x3b}
  __oi_cwd=${__oi_cwd//$'\a'/\\x07}; __oi_cwd=${__oi_cwd//$'\e'/\\x1b}; __oi_cwd=${__oi_cwd//$'\n'/\\x0a}
  # The stderr terminal's own fence first: everything the cell wrote there came before it.
  { true >&"$__oi_errfd"; } 2>/dev/null || __oi_errfd=2
  # (Without a stderr terminal it goes with the others on fd 1.)
  if [ "$__oi_errfd" = 2 ]; then printf '\033]633;P;OiErrFence=%s\007' "$__oi_nonce"; else printf '\033]633;P;OiErrFence=%s\007' "$__oi_nonce" >&"$__oi_errfd"; fi
  __oi_env_report
  printf '\033]633;P;Cwd=%s\007\033]633;D;%s\007\033]633;P;OiFence=%s\007' "$__oi_cwd" "$__oi_ec" "$__oi_nonce"
}
# Exported variables a run set, changed or unset, as `633;P;OiEnv=NAME=value` and
# `633;P;OiEnvUnset=NAME` before the fence (notebook export starts each exported shell cell with the
# variables its session had: docs/notebooks.md). Fork-free: every variable name comes from the
# `${!prefix*}` expansions, its export flag from `${!name@a}` (bash 4.4+; older bash, macOS's 3.2,
# reports nothing). `local -` keeps a cell's `set -x`/`set -u` out of it (no trace of the loop in the
# output). `quiet` records the environment the session started with without reporting it.
if ((BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4))); then
  declare -gA __oi_env_seen=()
  __oi_env_report() {
    local - __oi_n __oi_v __oi_out=
    set +xu
    local -A __oi_now=()
    for __oi_n in ${!A*} ${!B*} ${!C*} ${!D*} ${!E*} ${!F*} ${!G*} ${!H*} ${!I*} ${!J*} ${!K*} ${!L*} ${!M*} \
      ${!N*} ${!O*} ${!P*} ${!Q*} ${!R*} ${!S*} ${!T*} ${!U*} ${!V*} ${!W*} ${!X*} ${!Y*} ${!Z*} ${!a*} ${!b*} \
      ${!c*} ${!d*} ${!e*} ${!f*} ${!g*} ${!h*} ${!i*} ${!j*} ${!k*} ${!l*} ${!m*} ${!n*} ${!o*} ${!p*} ${!q*} \
      ${!r*} ${!s*} ${!t*} ${!u*} ${!v*} ${!w*} ${!x*} ${!y*} ${!z*} ${!_*}; do
      [[ ${!__oi_n@a} == *x* ]] || continue
      case $__oi_n in __oi_*|PWD|OLDPWD|SHLVL|_) continue;; esac
      __oi_now[$__oi_n]=1
      __oi_v=${!__oi_n}
      [[ ${__oi_env_seen[$__oi_n]+set} == set && ${__oi_env_seen[$__oi_n]} == "$__oi_v" ]] && continue
      __oi_env_seen[$__oi_n]=$__oi_v
      [ -n "${1-}" ] && continue
      __oi_v=${__oi_v//\\/\\x5c}; __oi_v=${__oi_v//;/\\x3b}; __oi_v=${__oi_v//$'\a'/\\x07}
      __oi_v=${__oi_v//$'\e'/\\x1b}; __oi_v=${__oi_v//$'\n'/\\x0a}; __oi_v=${__oi_v//$'\r'/\\x0d}
      __oi_out+=$'\033]633;P;OiEnv='"$__oi_n=$__oi_v"$'\007'
    done
    for __oi_n in "${!__oi_env_seen[@]}"; do
      [[ ${__oi_now[$__oi_n]+set} == set ]] && continue
      unset '__oi_env_seen[$__oi_n]'
      [ -n "${1-}" ] || __oi_out+=$'\033]633;P;OiEnvUnset='"$__oi_n"$'\007'
    done
    printf '%s' "$__oi_out"
  }
else
  __oi_env_report() { :; }
fi
__oi_begin() {
  __oi_nonce=$1
  __oi_code=
  IFS= read -r -d '' __oi_code < "$__oi_cell"
  # A cell that closed the stderr terminal's fd writes its stderr to fd 2 from then on.
  { true >&"$__oi_errfd"; } 2>/dev/null || __oi_errfd=2
  printf '\033]633;C\007'
}
__oi_env_report quiet
PROMPT_COMMAND=__oi_prompt
readonly PROMPT_COMMAND
