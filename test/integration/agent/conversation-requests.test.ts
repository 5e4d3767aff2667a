import { describe, expect, it } from 'vitest';
import type {} from '../../../src-main/core/app';
import { useRequestApp } from '../../support/request-app';

const t = useRequestApp('oi-requests-');
const call = t.call;

describe('conversation requests through the contract', () => {
  it('imports an LMC file, exports it again, renames and deletes it', async () => {
    const lmc = [
      { role: 'user', type: 'message', content: 'Count to three' },
      { role: 'assistant', type: 'code', format: 'shell', content: 'seq 3' },
      { role: 'computer', type: 'console', format: 'output', content: '1\n2\n3\n' },
    ];
    const conv = (await call('conversation.import', { json: JSON.stringify(lmc) })) as { id: string; title: string; items: unknown[] };
    expect(conv.title).toBe('Count to three');
    expect(conv.items).toHaveLength(2);

    const exported = (await call('conversation.export-lmc', { conversationId: conv.id })) as { json: string };
    expect(JSON.parse(exported.json)).toEqual(lmc);

    expect(await call('conversation.rename', { conversationId: conv.id, title: 'Counting' })).toMatchObject({ title: 'Counting' });
    expect(await call('conversation.list', { query: 'counting' })).toHaveLength(1);
    await call('conversation.delete', { conversationId: conv.id });
    expect(await call('conversation.list', {})).toEqual([]);
  });

  it('explains what is wrong with an import that is not a conversation', async () => {
    await expect(call('conversation.import', { json: '{"hello": 1}' })).rejects.toThrow(/conversation.import: expected a JSON array/);
  });

  it('says there is nothing to undo in an empty conversation', async () => {
    const conv = (await call('conversation.create', {})) as { id: string };
    await expect(call('conversation.undo', { conversationId: conv.id })).rejects.toThrow(/no message to undo/);
    await expect(call('chat.edit-last', { conversationId: conv.id, text: 'x' })).rejects.toThrow(/no message to edit/);
  });
});
