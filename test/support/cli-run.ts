import { chmodSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, onTestFinished } from 'vitest';
import type { AnyEvent } from '@contract';
import { startScriptedLlm, type ScriptedLlm, type ScriptedLlmOptions } from '../fixtures/llm-server';
import { cliEnv, OiTerminal, runOi, tempDir, type OiTerminalOptions } from './cli-process';

// What a test file that runs `oi` starts for each test — the scripted model server, the data folder,
// `oi` in a terminal — owned in one place and ended after every test, however it ends, so that a test
// that fails halfway leaves no server, folder or process behind for the next one.

export interface CliRunScope {
  /** A scripted model server (startScriptedLlm's options), closed after the test. */
  llm(options?: ScriptedLlmOptions): Promise<ScriptedLlm>;
  /** A fresh data folder (`<tmp>/<prefix>…`), removed after the test. */
  folder(prefix: string): string;
  /** Both: a scripted model server and a fresh data folder. */
  start(prefix: string, options?: ScriptedLlmOptions): Promise<{ llm: ScriptedLlm; dir: string }>;
  /** `oi` in a pseudo-terminal, killed (and waited for) after the test. */
  terminal(args: string[], env: Record<string, string>, options?: OiTerminalOptions): OiTerminal;
}

/** For a test file running `oi`: call once at the top level; what each test starts is ended after it. */
export function useCliRun(): CliRunScope {
  const terminals: OiTerminal[] = [];
  const servers: ScriptedLlm[] = [];
  const folders: Array<{ remove(): void }> = [];
  // The order matters: oi first (it talks to the server and writes in the folder), then the server, then the folder.
  afterEach(async () => {
    for (const oi of terminals.splice(0)) {
      oi.kill();
      await oi.exited;
    }
    for (const server of servers.splice(0)) await server.close();
    for (const folder of folders.splice(0)) folder.remove();
  });
  const scope: CliRunScope = {
    async llm(options) {
      const server = await startScriptedLlm(options);
      servers.push(server);
      return server;
    },
    folder(prefix) {
      const made = tempDir(prefix);
      folders.push(made);
      return made.dir;
    },
    async start(prefix, options) {
      const llm = await scope.llm(options);
      return { llm, dir: scope.folder(prefix) };
    },
    terminal(args, env, options = {}) {
      const oi = new OiTerminal(args, env, options);
      terminals.push(oi);
      return oi;
    },
  };
  return scope;
}

/** The events `oi --json` printed, one JSON object a line (other lines left out). */
export function jsonEvents(stdout: string): AnyEvent[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as AnyEvent);
}

/** The cells of `oi --json`'s cell.done events, in order. */
export function doneCells(events: AnyEvent[]) {
  return events.flatMap((e) => (e.name === 'cell.done' ? [e.payload.cell] : []));
}

/** At oi's prompt, sends `message`, waits for the question about the code it leads to, and answers it. */
export async function sendAndAnswer(oi: OiTerminal, message: string, answer: string): Promise<void> {
  await oi.expect('> ');
  oi.line(message);
  await oi.expect('Run this code?');
  oi.line(answer);
}

/** `oi --auto-run --json -m <message>` with these provider and model flags against the scripted server, code in <dir>/ws. */
export function runAutoJson(llm: ScriptedLlm, dir: string, model: string[], message: string) {
  return runOi(
    [...model, '--base-url', llm.openaiBaseUrl, '--workspace', path.join(dir, 'ws'), '--auto-run', '--json', '-m', message],
    cliEnv(dir),
  );
}

/** The conversation id in the result line that ends `oi --json`'s output. */
export function resultConversationId(stdout: string): string {
  return (JSON.parse(stdout.trim().split('\n').at(-1) ?? '{}') as { payload: { conversationId: string } }).payload.conversationId;
}

/** A stand-in for $EDITOR: a shell script (`body`, run with the file to edit as $1), removed when the test ends. */
export function standInEditor(body: string): string {
  const folder = tempDir('oi-editor-');
  onTestFinished(() => folder.remove());
  const editor = path.join(folder.dir, 'editor.sh');
  writeFileSync(editor, `#!/bin/sh\n${body}\n`);
  chmodSync(editor, 0o755);
  return editor;
}

/**
 * For a test file whose tests share one scripted model server and one data folder (each test a
 * conversation of its own): started before the tests, ended after them.
 */
export function useFileLlm(prefix: string, options?: ScriptedLlmOptions): { llm(): ScriptedLlm; dir(): string } {
  let llm: ScriptedLlm | undefined;
  let folder: { dir: string; remove(): void } | undefined;
  beforeAll(async () => {
    llm = await startScriptedLlm(options);
    folder = tempDir(prefix);
  });
  afterAll(async () => {
    await llm?.close();
    folder?.remove();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('useFileLlm: used outside the tests (before its beforeAll)');
    return value;
  };
  return { llm: () => started(llm), dir: () => started(folder).dir };
}
