// The languages group of the engine's way in (`Languages.…` from core/exec): what names a cell may use,
// what runs them, and which shell stands for "shell".
export { LANGUAGES, findLanguage } from '../languages/registry';
export { python } from '../languages/python';
// A pyenv shim's answer kept in the data folder across starts (start-app.ts says where).
export { keepProbesIn } from '../languages/kept-probes';
export { GENERIC_SHELL_NAMES } from '../languages/shell';
export { genericShell, loginShellOf, type ShellName } from '../shell/shell-choice';
