// The auto-install group of the engine's way in (`AutoInstall.…` from core/exec): it wraps the engine,
// so that a failed import becomes a question, an install and a re-run.
export { withAutoInstall, type AutoInstallOptions, type InstallRefusal } from '../auto-install/auto-install-exec';
export type { InstallQuestion } from '../auto-install/install-plans';
export type { InstallRecord } from '../auto-install/install-record';
export { pipPackageFor } from '../auto-install/package-names';
