import { useRef, useState } from 'react';
import type { CellItem, ConversationItem } from '@contract';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import type { RewindQuestion } from './RewindDialog';

/**
 * A cell's rewind: what it asks (RewindDialog), the restore, and the line it leaves. The files edited
 * outside the app since are named and asked about before anything is replaced (docs/checkpoints.md).
 */
export function useRewind(opts: {
  conversationId: string | undefined;
  cell: CellItem;
  items: ConversationItem[] | undefined;
  reopen: (conversationId: string) => Promise<void>;
  setStatus: (text: string) => void;
}) {
  const [question, setQuestion] = useState<RewindQuestion | null>(null);
  const answer = useRef<((yes: boolean) => void) | null>(null);
  const ask = (q: RewindQuestion) =>
    new Promise<boolean>((resolve) => {
      answer.current = resolve;
      setQuestion(q);
    });
  const onAnswer = (yes: boolean) => {
    setQuestion(null);
    answer.current?.(yes);
    answer.current = null;
  };

  const rewind = async () => {
    const { conversationId, cell, items, setStatus } = opts;
    if (!conversationId || question) return;
    // What this cell and the ones after it did to paths no checkpoint could keep: said before the rewind.
    const from = (items ?? []).findIndex((i) => i.id === cell.id);
    const lost = (items ?? [])
      .slice(Math.max(0, from))
      .flatMap((i) => (i.kind === 'cell' ? (i.changes?.unrestorable ?? []) : []))
      .map((u) => `${u.path}: ${u.reason}`);
    if (!(await ask({ stage: 'rewind', cannotRestore: [...new Set(lost)] }))) return;
    try {
      let outcome = await bridge['checkpoints.restore']({ conversationId, cellId: cell.id });
      if (outcome.status === 'needs-confirmation') {
        const files = outcome.modifiedOutside.slice(0, 20);
        if (!(await ask({ stage: 'changed-outside', files, more: outcome.modifiedOutside.length - files.length }))) {
          setStatus('Not rewound: the files changed outside the app are kept.');
          return;
        }
        outcome = await bridge['checkpoints.restore']({ conversationId, cellId: cell.id, confirm: true });
      }
      if (outcome.status === 'restored') {
        const left = outcome.cannotRestore.map((u) => u.path);
        const more = outcome.cannotRestoreCount - left.length;
        setStatus(
          `Rewound: ${outcome.changedPaths} paths put back.` +
            (left.length > 0 ? ` Not restorable: ${left.join(', ')}${more > 0 ? ` and ${more} more` : ''}.` : ''),
        );
        await opts.reopen(conversationId);
      }
    } catch (err) {
      setStatus(plainMessage(err));
    }
  };
  return { rewind, question, onAnswer };
}
