/** ANSI styling when writing to a terminal that wants colour (NO_COLOR, FORCE_COLOR respected). */
export interface Style {
  /** Whether escape codes may be written at all (a terminal that wants colour). */
  readonly colour: boolean;
  dim(s: string): string;
  bold(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  cyan(s: string): string;
}

export function styleFor(stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): Style {
  const on = env.FORCE_COLOR ? env.FORCE_COLOR !== '0' : !!stream.isTTY && !env.NO_COLOR && env.TERM !== 'dumb';
  const wrap = (open: number, close: number) => (s: string) => (on ? `\x1b[${open}m${s}\x1b[${close}m` : s);
  return {
    colour: on,
    dim: wrap(2, 22),
    bold: wrap(1, 22),
    red: wrap(31, 39),
    green: wrap(32, 39),
    yellow: wrap(33, 39),
    cyan: wrap(36, 39),
  };
}
