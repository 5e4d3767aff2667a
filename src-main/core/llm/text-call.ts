/**
 * A tool call a model wrote as text, in any dialect (text-call-dialects.ts reads them all; each
 * dialect's own reader, such as qwen-xml-calls.ts, produces this). Its own file so the readers and
 * the dialect table import it without a cycle.
 */
export interface TextCall {
  name: string;
  /** The arguments as JSON text (what a native tool call would carry). */
  args: string;
}
