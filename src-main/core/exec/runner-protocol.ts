import { z } from 'zod';
// A value import, so by relative path: scripts run with plain tsx (the bench) do not know the alias.
import { CellOutput } from '../../../src-preload/contract/model';

// Messages a runner sends on the side channel (docs/exec-protocol.md). Parsed, never trusted: a
// runner is user-controlled code's neighbour, and a malformed message must not break main.

export const HelloMessage = z.object({
  type: z.literal('hello'),
  language: z.string(),
  version: z.string().nullable().optional(),
  pid: z.number().int().optional(),
});

export const OutputMessage = z.object({
  type: z.literal('output'),
  id: z.string(),
  output: CellOutput,
});

export const DoneMessage = z.object({
  type: z.literal('done'),
  id: z.string(),
  ok: z.boolean(),
  cwd: z.string().nullable().optional(),
});

export const RunnerMessage = z.discriminatedUnion('type', [HelloMessage, OutputMessage, DoneMessage]);

export type RunnerMessage = z.infer<typeof RunnerMessage>;

export interface RunCommand {
  type: 'run';
  id: string;
  code: string;
  nonce: string;
  executionCount: number;
}

export interface ShutdownCommand {
  type: 'shutdown';
}
