import { useEffect, useState } from 'react';
import { plainMessage } from '../../state/plain-error';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

/**
 * Settings → Memory (docs/agent.md#memory): the notes the model saved — the plain file
 * `<data folder>/memory.md`, read and edited here. Whether it may save them is the Memory toggle.
 */
export function MemorySection() {
  const enabled = useApp((s) => s.settings?.memory ?? true);
  const [file, setFile] = useState<string | null>(null);
  const [text, setText] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);

  useEffect(() => {
    bridge['memory.read']({}).then(
      (m) => {
        setFile(m.path);
        setText(m.text);
      },
      (err: unknown) => setMessage({ error: true, text: plainMessage(err) }),
    );
  }, []);

  const save = (e: React.FormEvent) => {
    e.preventDefault();
    bridge['memory.write']({ text }).then(
      (m) => {
        setText(m.text);
        setMessage({ error: false, text: 'Saved.' });
      },
      (err: unknown) => setMessage({ error: true, text: plainMessage(err) }),
    );
  };
  return (
    <section className="settings-section" aria-labelledby="section-memory" data-testid="memory-section">
      <h2 id="section-memory">Memory</h2>
      <p className="muted small">
        Notes the model saved (each shown as “Remembered: …” when saved), given to every new conversation
        {enabled ? '' : ' — not while Memory is off above'}. They are kept in <code>{file ?? '…'}</code>, one per line; edit or remove them
        here or in any editor.
      </p>
      <form onSubmit={save}>
        <textarea aria-label="Memory notes" rows={6} value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit">Save notes</button>
      </form>
      {message && (
        <p className={message.error ? 'error small' : 'muted small'} role={message.error ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
    </section>
  );
}
