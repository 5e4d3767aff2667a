// Open Interpreter's JavaScript session: runs cells like a notebook, state kept between cells.
// Protocol (side channel + terminal fence): docs/exec-protocol.md. Plain Node, no dependencies;
// runs on Node 20.12+ or on Electron's Node with ELECTRON_RUN_AS_NODE=1.
//
// Cells run as scripts in the runner's own (main) context, as the `node` REPL does, rather than
// in a separate vm context: values from Node's APIs then belong to the same realm as the cell's
// code, so `instanceof Array`, Buffer, Promise and friends behave as in any Node program. The
// runner's own state lives in this module's scope, out of the cell's reach; the cell sees only
// the globals added below. How declarations persist: see transform.mjs.
//
// Interrupt: main sends an `interrupt` message with the run's id and a SIGINT. The synchronous part
// of a cell runs with breakOnSigint, so the SIGINT stops even a busy loop. A cell awaiting something
// is answered at once, on the message, with an error output while the work it started keeps running
// in the background (JavaScript has no way to cancel it). A busy loop that starts after an await
// cannot be stopped from inside: main kills and restarts the session. A SIGINT anywhere else is
// absorbed by sigint-guard.mjs, which also keeps Node from ending the process on one.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { inspect } from 'node:util';
import vm from 'node:vm';
import { keepSigintListeners } from './cell-sigint.mjs';
import { startSigintGuard } from './sigint-guard.mjs';
import { display, HTML, Image, Markdown, resultOutput, setEmitter } from './display.mjs';
import { Files } from './files.mjs';
import { installInput } from './input.mjs';
import { writeAll, writeDirectly } from './terminal-write.mjs';
import { tryPrepareCell } from './transform.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const workspace = path.resolve(process.env.OI_WORKSPACE || process.cwd());
const channelPath = process.env.OI_CHANNEL;
delete process.env.OI_CHANNEL; // child processes have no use for it
// The terminal is written directly, not through Node's streams, which an interrupt can leave
// stuck (terminal-write.mjs; Windows keeps Node's own). Captured now: a cell may replace
// process.stdout.write or console, the runner still needs them.
const direct = process.platform !== 'win32';
const writeOut = direct ? writeDirectly(process.stdout, 1) : process.stdout.write.bind(process.stdout);
const stderrWrite = direct ? writeDirectly(process.stderr, 2) : process.stderr.write.bind(process.stderr);
const writeErr = stderrWrite;
const importModuleDynamically = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;

const exitProcess = process.exit.bind(process);
const addProcessListener = process.on.bind(process); // before cell-sigint.mjs takes 'SIGINT' over

class Interrupted extends Error {
  constructor(detail) {
    super(`interrupted by SIGINT${detail}`);
    this.name = 'Interrupted';
  }
}

// process.exit() in a cell ends the cell, not the session (as sys.exit does in Python).
class ProcessExit extends Error {
  constructor(code) {
    super(`process.exit(${code}) was called; the session stays alive`);
    this.name = 'ProcessExit';
    this.exitCode = code;
  }
}
process.exit = function exit(code = process.exitCode ?? 0) {
  throw new ProcessExit(code);
};

let current = null; // the running cell: { id, nonce, seq (the next output's number), inputSeq, interrupt?(): void }
let lastId = null;

// --- side channel -------------------------------------------------------------------------------

const socket = net.createConnection(channelPath);
function send(message) {
  socket.write(`${JSON.stringify(message)}\n`);
}
socket.on('error', () => exitProcess(0)); // main is gone; nobody is left to run cells for
socket.on('close', () => exitProcess(0));

let queue = Promise.resolve();
let partial = '';
socket.setEncoding('utf8');
socket.on('data', (chunk) => {
  partial += chunk;
  let newline;
  while ((newline = partial.indexOf('\n')) >= 0) {
    const line = partial.slice(0, newline);
    partial = partial.slice(newline + 1);
    let message;
    try {
      message = JSON.parse(line);
    } catch {
      continue;
    }
    if (message?.type === 'shutdown') exitProcess(0);
    if (message?.type === 'input_reply') answerInput(message);
    if (message?.type === 'interrupt') interruptRun(String(message.id ?? ''));
    // main's barrier at a run's end: answered once the cells before it have finished, after
    // everything they sent. The event loop waits the same way for a cell's await as between
    // cells, so for JavaScript this queue, not the wait main sees, says the cell is over.
    if (message?.type === 'sync') {
      const token = String(message.token ?? '');
      queue = queue.then(() => send({ type: 'synced', token }));
    }
    if (message?.type === 'run') {
      queue = queue.then(() => runCell(message)).catch((error) => writeErr(`runner error: ${inspect(error)}\n`));
    }
  }
});

// An output is announced by a position marker in the terminal, after everything printed before it
// (stdout's writes keep their order), and carries the marker's number: main puts it exactly there.
// Between cells (a timer the cell left) there is no marker; main drops such an output anyway.
function emit(output) {
  const message = { type: 'output', id: current?.id ?? lastId, output };
  if (current) {
    message.seq = current.seq++;
    writeTerminal(`\x1b]633;P;OiOutput=${current.nonce}:${message.seq}\x07`);
  }
  send(message);
}

// --- input (docs/exec-protocol.md#input) ---------------------------------------------------------

const inputWaiters = new Map(); // the number of a question asked in the running cell → its resolve

// A marker where the question stands in the output, then the request; the reply (or the cell's end)
// settles it. Between cells nobody is asked: end-of-input.
function askInput(prompt, password) {
  if (!current) return Promise.resolve(null);
  const seq = current.inputSeq++;
  const id = current.id;
  writeTerminal(`${prompt}\x1b]633;P;OiInput=${current.nonce}:${seq}\x07`);
  return new Promise((resolve) => {
    inputWaiters.set(seq, resolve);
    send({ type: 'input_request', id, seq, prompt, password });
  });
}

function answerInput(message) {
  const resolve = inputWaiters.get(message.seq);
  if (!resolve || message.id !== current?.id) return;
  inputWaiters.delete(message.seq);
  resolve(message.eof ? null : String(message.value ?? ''));
}

/** A question still open when its cell ends gets end-of-input: its asker was left behind. */
function endOpenQuestions() {
  for (const resolve of inputWaiters.values()) resolve(null);
  inputWaiters.clear();
}

// What a cell writes to stderr is wrapped in the run's stream markers (docs/exec-protocol.md#stderr):
// stdout and stderr reach the one terminal in the order written, and main still knows which is which.
// console.error and friends write through process.stderr.write, so this catches them too.
process.stderr.write = function write(chunk, encoding, callback) {
  if (!current) return stderrWrite(chunk, encoding, callback);
  stderrWrite(`\x1b]633;P;OiStream=${current.nonce}:stderr\x07`);
  const ok = stderrWrite(chunk, encoding, callback);
  stderrWrite(`\x1b]633;P;OiStream=${current.nonce}:stdout\x07`);
  return ok;
};

const stdinControl = installInput({ ask: askInput, echo: (text) => writeTerminal(text), onEnd: () => setTimeout(failIfStranded, 50) });

// Node ends a program whose event loop has nothing left to do; here the runner's own socket and
// terminal keep it alive, so a cell awaiting an answer that end-of-input will never bring (readline's
// question() when the input closes) would wait until the timeout. After end-of-input, a cell still
// waiting while nothing of its own is left (timers, sockets, files, child processes…) fails instead.
const RUNNER_RESOURCES = new Set(['PipeWrap', 'TTYWrap', 'ConnectWrap', 'Timeout']);
let runnerPipes = 0;

function failIfStranded() {
  if (!current?.strand) return;
  const counts = new Map();
  for (const type of process.getActiveResourcesInfo?.() ?? ['unknown']) counts.set(type, (counts.get(type) ?? 0) + 1);
  const busy =
    [...counts.keys()].some((type) => !RUNNER_RESOURCES.has(type)) ||
    (counts.get('Timeout') ?? 0) > 1 || // one is this check's own timer
    (counts.get('PipeWrap') ?? 0) > runnerPipes;
  if (!busy) current.strand();
}

class EndOfInput extends Error {
  constructor() {
    super('the cell waits for input, the input ended (end-of-input), and nothing else is left that could finish it');
    this.name = 'EndOfInput';
  }
}

// --- one run ------------------------------------------------------------------------------------

async function runCell({ id, code, nonce, executionCount }) {
  stdinControl.renew();
  current = { id, nonce: String(nonce), seq: 0, inputSeq: 0 };
  lastId = id;
  let ok = true;
  try {
    if (interruptBeforeStart === id) throw new Interrupted('; the cell had not begun');
    const value = await evaluate(String(code ?? ''), executionCount);
    if (value !== undefined) emit(resultOutput(value, executionCount));
  } catch (error) {
    ok = isCleanExit(error);
    if (!ok) emit(safeErrorOutput(error));
  }
  current = null;
  interruptBeforeStart = null;
  endOpenQuestions();
  let cwd = null;
  try {
    cwd = process.cwd();
  } catch {
    // the cell deleted its working directory
  }
  await writeFence(`\x1b]633;P;OiFence=${nonce}\x07`);
  send({ type: 'done', id, ok, cwd });
}

/** Resolves once the fence is handed to the terminal, so `done` never overtakes it. */
function writeFence(fence) {
  return new Promise((resolve) => writeTerminal(fence, resolve));
}

/** Writes runner bytes after what the cell printed, even if the cell replaced or ended process.stdout. */
function writeTerminal(text, written = () => {}) {
  if (direct) {
    try {
      writeAll(1, text);
    } catch {
      // the terminal is gone: the channel still carries the output and `done`
    }
    return written();
  }
  if (!process.stdout.writable) {
    // the cell ended or destroyed process.stdout
    try {
      fs.writeSync(1, text);
    } catch {
      // nothing left to write to: the channel still carries the output and `done`
    }
    return written();
  }
  writeOut(text, () => written());
}

/** Compiles the cell: the rewritten forms first, then the cell as written. */
function compile(code, executionCount) {
  // A file name inside the workspace makes import() resolve packages from the workspace.
  const filename = path.join(workspace, `<cell ${executionCount ?? '?'}>`);
  const plan = tryPrepareCell(code);
  const attempts = [];
  if (plan?.sync != null) attempts.push({ source: plan.sync, isAsync: false, hasValue: plan.syncHasValue });
  if (plan?.async) attempts.push({ source: plan.async, isAsync: true, hasValue: true, rewritten: true });
  attempts.push({ source: code, isAsync: false, hasValue: true, asWritten: true });
  attempts.push({ source: `(async () => {\n${code}\n})()`, isAsync: true, hasValue: true, lineOffset: -1 });
  const errors = [];
  for (const attempt of attempts) {
    try {
      const options = { filename, lineOffset: attempt.lineOffset ?? 0 };
      if (importModuleDynamically) options.importModuleDynamically = importModuleDynamically;
      return { script: new vm.Script(attempt.source, options), ...attempt };
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      errors.push([attempt, error]);
    }
  }
  // Report the error of the cell as written, unless it only says "await/import needs a module".
  const asWritten = errors.find(([a]) => a.asWritten)[1];
  if (!/await|import|export/.test(asWritten.message)) throw asWritten;
  throw (errors.find(([a]) => a.rewritten) ?? errors[errors.length - 1])[1];
}

async function evaluate(code, executionCount) {
  const { script, isAsync, hasValue } = compile(code, executionCount);
  let result;
  try {
    result = script.runInThisContext({ breakOnSigint: true, displayErrors: true });
  } catch (error) {
    if (error?.code === 'ERR_SCRIPT_EXECUTION_INTERRUPTED') throw new Interrupted('');
    throw error;
  }
  if (!isAsync && !hasValue) return undefined;
  // A promise as the final value is awaited, so `main()` or `fetch(u).then(…)` finish in their cell.
  if (result === null || typeof result?.then !== 'function') return result;
  return new Promise((resolve, reject) => {
    current.interrupt = () => reject(new Interrupted('; work the cell started may still be running'));
    current.strand = () => reject(new EndOfInput());
    Promise.resolve(result).then(resolve, reject);
  });
}

// --- interrupt ----------------------------------------------------------------------------------

// Main's interrupt of one run, by id, in order with the run messages: it cannot be mistaken for
// another run's, however early or late it comes (a signal carries no run, and a SIGINT handled a
// moment late once stopped the next cell). Read only between JavaScript turns, so the running cell
// is then awaiting, or its run is still queued (the run message came in the same read), or it is
// over (nothing to do). A busy synchronous part is stopped by the SIGINT sent with this message.
let interruptBeforeStart = null;
const cellSigint = keepSigintListeners();

function interruptRun(id) {
  if (current?.id === id) {
    cellSigint.emit('SIGINT', 'SIGINT');
    current.interrupt?.();
  } else if (id !== lastId) interruptBeforeStart = id;
}

// --- errors -------------------------------------------------------------------------------------

const cellPrefix = path.join(workspace, '<cell ');
// Frames of Node's own machinery for running the cell, not of the user's program.
const RUNTIME_FRAME =
  /\(node:vm[:)]|at node:vm:|node:internal\/vm|at process\.processTicksAndRejections \(node:internal\/process\/task_queues/;
// As stack frames name the runner's modules: an encoded file URL (a space is %20 there).
const runnerUrl = pathToFileURL(HERE).href;

function cleanTrace(text) {
  return text
    .split('\n')
    .filter((line) => !line.includes(runnerUrl) && !line.includes(`${HERE}${path.sep}`) && !RUNTIME_FRAME.test(line))
    .map((line) => line.split(cellPrefix).join('<cell '));
}

function errorOutput(error) {
  if (error instanceof Interrupted || error instanceof EndOfInput) {
    return { output_type: 'error', ename: error.name, evalue: error.message, traceback: [`${error.name}: ${error.message}`] };
  }
  const isError = error !== null && typeof error === 'object' && typeof error.stack === 'string';
  if (!isError) {
    const shown = inspect(error);
    return { output_type: 'error', ename: 'Error', evalue: typeof error === 'string' ? error : shown, traceback: [`Uncaught ${shown}`] };
  }
  let detail;
  try {
    detail = inspect(error, { colors: false, depth: 2 }); // the stack plus cause, code, path…
  } catch {
    detail = error.stack;
  }
  return {
    output_type: 'error',
    ename: String(error.name ?? 'Error'),
    evalue: String(error.message ?? ''),
    traceback: cleanTrace(detail),
  };
}

function isCleanExit(error) {
  try {
    return error instanceof ProcessExit && Number(error.exitCode) === 0;
  } catch {
    return false; // a Proxy whose traps throw
  }
}

function safeErrorOutput(error) {
  try {
    return errorOutput(error);
  } catch {
    // a thrown value too odd to describe (a hostile Proxy…) still fails its cell, not the session
    return { output_type: 'error', ename: 'Error', evalue: 'a value was thrown that cannot be shown', traceback: [] };
  }
}

// Code a cell left running (timers, unawaited promises) must not take the session down.
process.on('uncaughtException', (error) => {
  if (error instanceof ProcessExit) writeErr(`${error.message}\n`);
  else writeErr(`Uncaught ${cleanTrace(inspect(error)).join('\n')}\n`);
});
process.on('unhandledRejection', (reason) => {
  if (reason instanceof ProcessExit) writeErr(`${reason.message}\n`);
  else writeErr(`Unhandled promise rejection: ${cleanTrace(inspect(reason)).join('\n')}\n`);
});

// --- the cell's globals -------------------------------------------------------------------------

const cellGlobals = {
  require: createRequire(`${workspace}${path.sep}`),
  __dirname: workspace,
  __filename: path.join(workspace, '<cell>'),
  files: new Files(workspace),
  display,
  HTML,
  Markdown,
  Image,
};
for (const [name, value] of Object.entries(cellGlobals)) {
  Object.defineProperty(globalThis, name, { value, writable: true, configurable: true, enumerable: false });
}
setEmitter(emit);

// Node warns once, on first use, that the loader option is experimental; take that warning now
// rather than in the middle of the user's first import().
async function absorbLoaderWarning() {
  if (!importModuleDynamically) return;
  const emitWarning = process.emitWarning;
  process.emitWarning = () => {};
  try {
    const options = { filename: path.join(workspace, '<warm-up>'), importModuleDynamically };
    await new vm.Script('import("node:path")', options).runInThisContext();
  } finally {
    process.emitWarning = emitWarning;
  }
}

/** The guard that keeps a SIGINT from ending the session (sigint-guard.mjs). */
async function guardSigint() {
  try {
    await startSigintGuard();
  } catch (error) {
    // Without it, a listener at least keeps a SIGINT between cells from ending the process.
    addProcessListener('SIGINT', () => {});
    writeErr(`runner: no SIGINT guard (${error?.message ?? error}): a Ctrl-C at the wrong moment may end the session\n`);
  }
}

await Promise.all([absorbLoaderWarning(), guardSigint(), new Promise((resolve) => socket.once('connect', resolve))]);
runnerPipes = process.getActiveResourcesInfo?.().filter((type) => type === 'PipeWrap').length ?? 0;
send({ type: 'hello', language: 'javascript', version: process.versions.node, pid: process.pid, protocol: 2 });
