import { useEffect, useState } from 'react';
import type { InstructionsState } from '@contract';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';
import './instructions.css';

/**
 * A line above the conversation naming the AGENTS.md files in effect (docs/agent.md#project-instructions),
 * each one click from its text. A workspace's files reach the model only once the person trusts its
 * folder: until then the line says they are not used and offers that. The workspace's hooks file is
 * named too (docs/agent.md#hooks): its commands would run as the person, so a folder with hooks alone
 * is offered for trust as well, and the person can read what they would run first.
 */
export function InstructionsLine() {
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const workspace = useApp((s) => s.current?.conv.workspace ?? null);
  // Read again when a turn ends: the turn's own cells may have written one.
  const busy = useApp((s) => s.current?.busy ?? false);
  // What was read, and the file shown, belong to one conversation and folder: another shows nothing
  // until its own answer comes.
  const key = `${conversationId}\n${workspace}`;
  const [loaded, setLoaded] = useState<{ key: string; state: InstructionsState } | null>(null);
  const [shown, setShown] = useState<{ key: string; path: string; text: string; cut: boolean } | null>(null);
  const setState = (state: InstructionsState) => setLoaded({ key, state });

  useEffect(() => {
    if (!conversationId || busy) return;
    let live = true;
    bridge['instructions.list']({ conversationId }).then(
      (state) => live && setLoaded({ key, state }),
      () => live && setLoaded(null),
    );
    return () => {
      live = false;
    };
  }, [conversationId, key, busy]);

  const state = loaded?.key === key ? loaded.state : null;
  const open = shown?.key === key ? shown : null;
  const setOpen = (file: { path: string; text: string; cut: boolean } | null) => setShown(file && { key, ...file });
  if (!conversationId || !state || (state.files.length === 0 && !state.hooksFile)) return null;
  const hooks = state.hooksFile;
  const untrusted = state.files.some((f) => f.scope === 'workspace' && !f.used) || (hooks !== null && !hooks.used);
  const show = (path: string) => {
    if (open?.path === path) return setOpen(null);
    bridge['instructions.read']({ conversationId, path }).then(
      (read) => setOpen({ path, ...read }),
      (err: unknown) => useApp.getState().reportError(err),
    );
  };
  const trust = () => bridge['instructions.trust']({ conversationId }).then(setState, (err: unknown) => useApp.getState().reportError(err));

  return (
    <div className="instructions-line" role="group" aria-label="Project instructions" data-testid="instructions-line">
      <span className="muted">Instructions:</span>
      {state.files.map((f) => (
        <button
          key={f.path}
          className={f.used ? 'link' : 'link not-used'}
          title={`${f.path}${f.used ? '' : ' (not given to the model)'}${f.cut ? ' (cut: longer than the app gives it)' : ''}`}
          aria-expanded={open?.path === f.path}
          onClick={() => show(f.path)}
        >
          {f.scope === 'user' ? 'yours' : relativeName(f.path, state.trustFolder)}
        </button>
      ))}
      {hooks && (
        <button
          className={hooks.used ? 'link' : 'link not-used'}
          title={`${hooks.path}: hooks, commands run as you${hooks.used ? '' : ' (not run)'}`}
          aria-expanded={open?.path === hooks.path}
          onClick={() => show(hooks.path)}
        >
          {relativeName(hooks.path, state.trustFolder)}
        </button>
      )}
      {untrusted && (
        <>
          <span className="muted">not used until you trust {state.trustFolder}</span>
          <button className="small" onClick={() => void trust()}>
            Trust this folder
          </button>
        </>
      )}
      {open && (
        <pre className="instructions-text" data-testid="instructions-text">
          {open.text}
          {open.cut ? '\n[… the rest is not given to the model]' : ''}
        </pre>
      )}
    </div>
  );
}

function relativeName(file: string, folder: string): string {
  return file.startsWith(`${folder}/`) ? file.slice(folder.length + 1) : file;
}
