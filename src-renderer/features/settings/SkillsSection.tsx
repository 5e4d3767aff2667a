import { useEffect, useState } from 'react';
import type { SkillInfo, SkillsState } from '@contract';
import { bridge } from '../../bridge/bridge';
import { useApp } from '../../state/app-store';

/**
 * Settings → Skills (docs/agent.md#skills): the person's skills and the current conversation's
 * workspace's, each with whether the model is offered it and, for a broken one, why not; trusting the
 * workspace's folder (the same trust as its AGENTS.md); installing a skill from a folder or a .zip.
 */
export function SkillsSection() {
  const conversationId = useApp((s) => s.current?.conv.id ?? null);
  const [state, setState] = useState<SkillsState | null>(null);
  const [source, setSource] = useState('');
  const [message, setMessage] = useState<{ error: boolean; text: string } | null>(null);
  const reload = () =>
    bridge['skills.list'](conversationId ? { conversationId } : {}).then(setState, (err: unknown) => useApp.getState().reportError(err));

  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- reload reads only conversationId
  }, [conversationId]);

  const install = (e: React.FormEvent) => {
    e.preventDefault();
    if (!source.trim()) return;
    bridge['skills.install']({ path: source.trim() }).then(
      (skill) => {
        setMessage({ error: false, text: `Installed ${skill.name}.` });
        setSource('');
        void reload();
      },
      (err: unknown) => setMessage({ error: true, text: err instanceof Error ? err.message : String(err) }),
    );
  };
  const trust = () => {
    if (!conversationId) return;
    bridge['instructions.trust']({ conversationId }).then(
      () => void reload(),
      (err: unknown) => useApp.getState().reportError(err),
    );
  };
  const untrusted = state?.skills.some((s) => s.source === 'workspace' && !s.trusted) ?? false;
  return (
    <section className="settings-section" aria-labelledby="section-skills" data-testid="skills-section">
      <h2 id="section-skills">Skills</h2>
      <p className="muted small">
        Folders with a SKILL.md (name and description in its front matter, then instructions, scripts and resources). The model sees each
        skill’s name and description and loads the rest when a task needs it. Yours are in <code>{state?.userFolder ?? '…'}</code>; a
        workspace’s (<code>.agents/skills</code>, <code>.claude/skills</code>) only once you trust its folder.
      </p>
      {state && state.skills.length > 0 && (
        <ul className="mcp-tools" aria-label="Skills">
          {state.skills.map((skill) => (
            <li key={skill.folder} data-testid="skill-row" title={skill.folder}>
              <code>{skill.name}</code> <span className="muted small">{skill.source === 'user' ? 'yours' : 'workspace'}</span> —{' '}
              {statusOf(skill, state.trustFolder)}
              {skill.description && <div className="muted small">{skill.description}</div>}
            </li>
          ))}
        </ul>
      )}
      {untrusted && state?.trustFolder && (
        <button className="small" onClick={trust}>
          Trust {state.trustFolder}
        </button>
      )}
      <form className="row" onSubmit={install}>
        <input
          value={source}
          onChange={(e) => setSource(e.target.value)}
          placeholder="/path/to/skill-folder or skill.zip"
          aria-label="Skill folder or .zip"
        />
        <button type="submit" disabled={!source.trim()}>
          Install
        </button>
      </form>
      {message && (
        <p
          className={message.error ? 'error small' : 'muted small'}
          role={message.error ? 'alert' : 'status'}
          data-testid="skill-install-result"
        >
          {message.text}
        </p>
      )}
    </section>
  );
}

function statusOf(skill: SkillInfo, trustFolder: string | null): string {
  if (skill.broken) return `broken: ${skill.broken}`;
  if (!skill.trusted) return `not offered until you trust ${trustFolder ?? 'its folder'}`;
  return 'offered to the model';
}
