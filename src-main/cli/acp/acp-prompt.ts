import { RequestError, type ContentBlock } from '@agentclientprotocol/sdk';

// A prompt's content blocks as the message the model gets. Text is the message; a file the person
// mentioned (resource_link) is named by its path, and one the editor embedded (resource, as
// `embeddedContext` allows) is given whole, marked with where it came from.

export function promptText(blocks: ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        parts.push(block.text);
        break;
      case 'resource_link':
        parts.push(`@${pathOf(block.uri)}`);
        break;
      case 'resource':
        if ('text' in block.resource) parts.push(`<file path="${pathOf(block.resource.uri)}">\n${block.resource.text}\n</file>`);
        else throw new RequestError(-32602, `the embedded resource ${block.resource.uri} is binary; oi acp takes text resources only`);
        break;
      default:
        // Not offered in promptCapabilities, so a client sending it has not read them.
        throw new RequestError(-32602, `oi acp does not take ${block.type} content in prompts (see its promptCapabilities)`);
    }
  }
  const text = parts.join('\n');
  if (!text.trim()) throw new RequestError(-32602, 'the prompt is empty');
  return text;
}

/** A file:// URI as its path (what the model can open); other URIs as they are. */
function pathOf(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return decodeURIComponent(new URL(uri).pathname);
  } catch {
    return uri;
  }
}
