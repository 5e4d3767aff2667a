import { z } from 'zod';
// A value import, so by relative path: scripts run with plain tsx (the bench) do not know the alias.
import { CellOutput, DisplayUpdate } from '../../../../src-preload/contract/model';

// Messages a runner sends on the side channel (docs/exec-protocol.md). Parsed, never trusted: a
// runner is user-controlled code's neighbour, and a malformed message must not break main.

export const HelloMessage = z.object({
  type: z.literal('hello'),
  language: z.string(),
  /** 2 for runners that write output position markers; absent in protocol 1. */
  protocol: z.number().int().optional(),
  version: z.string().nullable().optional(),
  pid: z.number().int().optional(),
});

export const OutputMessage = z.object({
  type: z.literal('output'),
  id: z.string(),
  /** Protocol 2: the output's number in its run, also carried by its position marker in the terminal. */
  seq: z.number().int().nonnegative().optional(),
  output: CellOutput,
});

/** A display shown earlier (by its id) gets new data; no position of its own, so no marker. */
export const UpdateMessage = DisplayUpdate.extend({
  type: z.literal('update'),
  id: z.string(),
});

export const DoneMessage = z.object({
  type: z.literal('done'),
  id: z.string(),
  ok: z.boolean(),
  cwd: z.string().nullable().optional(),
});

/** The cell asks for a line of input (docs/exec-protocol.md#input); answered with an `input_reply`. */
export const InputRequestMessage = z.object({
  type: z.literal('input_request'),
  id: z.string(),
  /** The question's number in its run, also carried by its marker in the terminal. */
  seq: z.number().int().nonnegative(),
  prompt: z.string().max(100_000).default(''),
  password: z.boolean().default(false),
  /** false when no marker was written (R under a sink()): main asks without waiting for one. */
  marked: z.boolean().default(true),
});

/**
 * The cell's code asks main to act on the screen (`computer.mouse.click(…)` in Python, docs/computer-use.md#in-code):
 * answered with a `computer_reply`. Main decides everything — whether computer use is on for the
 * conversation, the person's approval — so the action is only a request, parsed again there.
 */
export const ComputerRequestMessage = z.object({
  type: z.literal('computer_request'),
  id: z.string(),
  seq: z.number().int().nonnegative(),
  action: z.record(z.string(), z.unknown()),
});

/**
 * The answer to main's `sync`, sent from the runner's loop after everything it sent before: the
 * channel's barrier at the end of a run (session/run-end.ts).
 */
export const SyncedMessage = z.object({
  type: z.literal('synced'),
  token: z.string().max(200),
});

export const RunnerMessage = z.discriminatedUnion('type', [
  HelloMessage,
  OutputMessage,
  UpdateMessage,
  DoneMessage,
  InputRequestMessage,
  ComputerRequestMessage,
  SyncedMessage,
]);

export type RunnerMessage = z.infer<typeof RunnerMessage>;
export type ComputerRequestMessage = z.infer<typeof ComputerRequestMessage>;

/**
 * A parsed line as a runner message, or null when it is not one. `done`, which ends every run, is
 * checked by hand first (the same rules as DoneMessage, unknown keys dropped the same way): the
 * schema's general parse of it was a noticeable part of main's work in a warm run.
 */
export function toRunnerMessage(json: unknown): RunnerMessage | null {
  if (typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'done') {
    const { id, ok, cwd } = json as { id?: unknown; ok?: unknown; cwd?: unknown };
    if (typeof id === 'string' && typeof ok === 'boolean' && (cwd === undefined || cwd === null || typeof cwd === 'string'))
      return cwd === undefined ? { type: 'done', id, ok } : { type: 'done', id, ok, cwd };
  }
  const parsed = RunnerMessage.safeParse(json);
  return parsed.success ? parsed.data : null;
}

export interface RunCommand {
  type: 'run';
  id: string;
  code: string;
  /** The run's tag for its fence and markers. Not a secret: the cell's code can read it (docs/exec-protocol.md#end-of-a-run). */
  nonce: string;
  executionCount: number;
}

/** Asked once the runner is seen back in its wait: answered with `synced` and the same token. */
export interface SyncCommand {
  type: 'sync';
  token: string;
}

/**
 * Main interrupts this run (sent with the SIGINT). Tied to the run by its id and ordered after the
 * run message, so a runner that reads it between its own steps (JavaScript) cannot take it for
 * another run's; runners that do not use it ignore it like any unknown message.
 */
export interface InterruptCommand {
  type: 'interrupt';
  id: string;
}

export interface ShutdownCommand {
  type: 'shutdown';
}

export interface InputReplyCommand {
  type: 'input_reply';
  id: string;
  seq: number;
  /** The line typed, without its newline; absent with eof. */
  value?: string;
  eof?: true;
}

/** Main's answer to a `computer_request`: what was done (or why not), and the screenshot after it. */
export interface ComputerReplyCommand {
  type: 'computer_reply';
  id: string;
  seq: number;
  ok: boolean;
  text: string;
  /** The screenshot after the action (PNG, base64), its size, and the real screen's. */
  png?: string;
  width?: number;
  height?: number;
  /** find_window's answer: the windows found. */
  windows?: Array<{ id: number; title: string; class: string; instance: string; width: number; height: number }>;
}

/** The property key of a stream marker, `OSC 633 ; P ; OiStream=<nonce>:stderr|stdout BEL`: text after it is that stream's. */
export const STREAM_MARKER_KEY = 'OiStream';

/** The stream a marker switches to, or null when it is not this run's marker. */
export function streamMarkerName(value: string, nonce: string): 'stdout' | 'stderr' | null {
  const colon = value.lastIndexOf(':');
  if (colon < 0 || value.slice(0, colon) !== nonce) return null;
  const name = value.slice(colon + 1);
  return name === 'stdout' || name === 'stderr' ? name : null;
}

/** The property key of an input marker, `OSC 633 ; P ; OiInput=<nonce>:<seq> BEL`: where a question stands in the output. */
export const INPUT_MARKER_KEY = 'OiInput';

/** The property key of an output position marker, `OSC 633 ; P ; OiOutput=<nonce>:<seq> BEL`. */
export const OUTPUT_MARKER_KEY = 'OiOutput';

/**
 * The sequence number a marker's value carries, or null when it is not this run's marker (a
 * program printing marker-shaped text by chance, or a stale one). The cell's own code can learn the
 * tag and place its own outputs elsewhere among its text; it cannot end the run with it.
 */
export function outputMarkerSeq(value: string, nonce: string): number | null {
  const colon = value.lastIndexOf(':');
  if (colon < 0 || value.slice(0, colon) !== nonce) return null;
  const digits = value.slice(colon + 1);
  if (!/^\d{1,9}$/.test(digits)) return null;
  return Number(digits);
}
