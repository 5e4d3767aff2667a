// The languages group of the engine's way in (`Languages.…` from core/exec): what names a cell may use,
// what runs them, and which shell stands for "shell".
export { LANGUAGES, findLanguage } from '../languages/registry';
export { python } from '../languages/python';
export { GENERIC_SHELL_NAMES } from '../languages/shell';
export { genericShell, loginShellOf, type ShellName } from '../shell/shell-choice';
