/** A program and its arguments, as the sandbox wrappers take and return it (sandbox-wrap.ts, network-relay.ts). */
export interface Command {
  file: string;
  args: string[];
}
