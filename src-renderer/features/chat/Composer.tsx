import { useEffect, useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import { useApp } from '../../state/app-store';
import { useComposer } from '../../state/composer-store';
import { Icon } from '../common/Icon';
import { AutoRunChip } from '../sandbox/AutoRunChip';
import { AttachmentChips } from './AttachmentChips';
import { attachFiles } from '../common/upload';
import { McpComposerMenu } from '../mcp/McpComposerMenu';
import { planCommand, setPlanMode } from '../plan/plan-actions';
import { PlanSwitch } from '../plan/PlanSwitch';
import { ComputerSwitch } from '../computer/ComputerSwitch';
import { savedCommandText } from '../commands/saved-commands';
import { askNotificationPermission } from '../../state/notifications';

export function Composer() {
  const [text, setText] = useState('');
  const busy = useApp((s) => s.current?.busy ?? false);
  const send = useApp((s) => s.send);
  const stop = useApp((s) => s.stop);
  const chips = useComposer((s) => s.chips);
  const insertion = useComposer((s) => s.insertion);
  const focusSeq = useComposer((s) => s.focusSeq.composer);
  const area = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const uploading = chips.some((c) => c.state === 'uploading');
  // Enter pressed while an attachment is still being copied in: the message goes once the copy ends
  // (the box is read-only meanwhile), rather than the key doing nothing and the person wondering why.
  const [queued, setQueued] = useState(false);

  useEffect(() => {
    if (!insertion) return;
    const el = area.current;
    const at = el?.selectionStart ?? text.length;
    setText((t) => t.slice(0, at) + insertion.text + t.slice(at));
    el?.focus();
    // Only a new insertion (its seq) should insert; the text it changes must not re-run this.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [insertion]);
  useEffect(() => {
    if (focusSeq > 0) area.current?.focus();
  }, [focusSeq]);

  // Attachments may go alone, without a word.
  const ready = chips.some((c) => c.state === 'ready');
  const submit = async () => {
    const t = text.trim();
    // `/plan` switches plan mode (docs/ui.md#plan-mode) instead of going to the model.
    const plan = planCommand(t, useApp.getState().current?.conv.planMode ?? false);
    if (plan !== null) {
      setText('');
      return setPlanMode(plan);
    }
    if (queued) return;
    if (uploading) {
      setQueued(true);
      await attachmentsCopied();
      setQueued(false);
    }
    if (!t && !useComposer.getState().chips.some((c) => c.state === 'ready')) return;
    // The browser asks only on a gesture: the first message sent is the moment (docs/ui.md#notifications).
    askNotificationPermission();
    // "/name arguments" naming a saved command sends the command's text (docs/agent.md#saved-commands).
    let message: string;
    try {
      message = (await savedCommandText(t)) ?? t;
    } catch (err) {
      useApp.getState().reportError(err);
      return;
    }
    const attachments = useComposer.getState().takeReady();
    setText('');
    const ok = await send(message, attachments);
    if (!ok) setText(t);
  };
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.ctrlKey && !e.metaKey && !e.altKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      void submit();
    }
  };
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const files = [...e.clipboardData.files];
    if (files.length === 0) return;
    e.preventDefault();
    void attachFiles(files);
  };

  return (
    <div className="composer">
      <AutoRunChip />
      <AttachmentChips />
      {queued && (
        <div className="muted small" role="status" data-testid="send-queued">
          Sends once the attachments are copied in
        </div>
      )}
      <div className="composer-row">
        <button
          className="icon-button attach"
          aria-label="Attach files"
          title="Attach files (or drop them on the chat)"
          onClick={() => fileInput.current?.click()}
        >
          <Icon name="attach" size={18} />
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          hidden
          onChange={(e) => {
            void attachFiles([...(e.target.files ?? [])]);
            e.target.value = '';
          }}
        />
        <McpComposerMenu
          text={text}
          onPromptText={(t) => {
            setText(t);
            area.current?.focus();
          }}
        />
        <textarea
          ref={area}
          aria-label="Message"
          placeholder="Ask for something to be done… (Enter sends, Shift+Enter for a new line)"
          value={text}
          onChange={(e) => setText(e.target.value)}
          readOnly={queued}
          onKeyDown={onKey}
          onPaste={onPaste}
          rows={Math.min(10, Math.max(2, text.split('\n').length))}
        />
        <div className="composer-actions">
          <PlanSwitch />
          <ComputerSwitch />
          {busy && (
            <button className="danger" onClick={() => void stop()} aria-label="Stop the agent" title="Stop (Esc)">
              Stop
            </button>
          )}
          <button
            className="primary"
            onClick={() => void submit()}
            disabled={(!text.trim() && !ready && !uploading) || queued}
            title={uploading ? 'Sends once the attachments are copied in' : 'Send (Enter)'}
          >
            Send
          </button>
        </div>
      </div>
    </div>
  );
}

/** Settles once no attachment is being copied in (each chip ready or failed). */
function attachmentsCopied(): Promise<void> {
  const copied = () => !useComposer.getState().chips.some((c) => c.state === 'uploading');
  return new Promise((resolve) => {
    if (copied()) return resolve();
    const stop = useComposer.subscribe(() => {
      if (!copied()) return;
      stop();
      resolve();
    });
  });
}
