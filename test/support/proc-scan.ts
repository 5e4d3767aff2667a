import { readdirSync, readFileSync } from 'node:fs';

// Finding a test's processes by their command line, from this machine's /proc: it sees every process,
// in any pid namespace (a sandboxed cell's own pids are not this machine's), and those another program
// started (an MCP client's daemon), whose ids the test is never told.

/** The ids of the processes whose arguments (`/proc/<pid>/cmdline`, NUL-separated) pass `matches`. */
export function processesWhere(matches: (args: string[]) => boolean): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        return matches(readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').slice(0, -1));
      } catch {
        return false; // gone while the folder was read
      }
    })
    .map(Number);
}
