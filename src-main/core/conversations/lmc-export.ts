import type { Conversation } from '@contract';

/** One message in Open Interpreter's LMC format. */
export interface LmcMessage {
  role: 'user' | 'assistant' | 'computer';
  type: 'message' | 'code' | 'console' | 'image' | 'file';
  format?: string;
  content: string;
}

/** The conversation as LMC messages, which Open Interpreter (Python) can load, and this app imports. */
export function toLmcMessages(conv: Conversation): LmcMessage[] {
  const out: LmcMessage[] = [];
  for (const item of conv.items) {
    switch (item.kind) {
      case 'user':
        out.push({ role: 'user', type: 'message', content: item.text });
        for (const att of item.attachments) {
          out.push(
            att.mime.startsWith('image/')
              ? { role: 'user', type: 'image', format: 'path', content: att.path }
              : { role: 'user', type: 'file', content: att.path },
          );
        }
        break;
      case 'assistant':
        if (item.text) out.push({ role: 'assistant', type: 'message', content: item.text });
        break;
      case 'cell': {
        out.push({ role: 'assistant', type: 'code', format: item.language, content: item.code });
        const text = item.outputs
          .map((o) => (o.output_type === 'stream' ? o.text : o.output_type === 'error' ? `${o.ename}: ${o.evalue}\n` : ''))
          .join('');
        out.push({ role: 'computer', type: 'console', format: 'output', content: text || item.resultForModel || '' });
        for (const o of item.outputs) {
          if (o.output_type !== 'display_data' && o.output_type !== 'execute_result') continue;
          const png = o.data['image/png'];
          if (typeof png === 'string') out.push({ role: 'computer', type: 'image', format: 'base64.png', content: png });
        }
        break;
      }
      case 'notice':
        break;
    }
  }
  return out;
}
