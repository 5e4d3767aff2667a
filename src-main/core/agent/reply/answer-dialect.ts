import { FencedCodeParser, type FenceEvent } from './fenced-code-parser';

// A local model nobody has probed yet is offered the execute tool, but many (classic Open Interpreter
// fine-tunes, small models whose template has no tools) answer with a plain ```python block instead.
// Until a probe says which form the model uses, the answer itself decides: a reply with no tool call
// in any form and a runnable fenced block was written in the fenced dialect, and its blocks are cells.
// (Only a reply without calls: a model that called the tool and also showed a block means the call.)

/**
 * The reply split into prose and runnable blocks when it was written in the fenced dialect, or null
 * when it holds no block `runnable` accepts (then it is prose, as it streamed).
 */
export function fencedDialectOf(text: string, runnable: (info: string) => string | null): FenceEvent[] | null {
  const parser = new FencedCodeParser(runnable);
  const events = [...parser.feed(text), ...parser.finish()];
  return events.some((ev) => ev.type === 'code-start') ? events : null;
}
