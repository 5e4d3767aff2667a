// The processes group of the engine's way in (`Processes.…` from core/exec): a process's environment
// without the app's keys, and whether a process id is alive.
export { withoutKeys } from '../process/env';
export { isAlive } from '../process/process-alive';
