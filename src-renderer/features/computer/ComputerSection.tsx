import { computerUnavailable, useComputerSupport } from '../../state/computer-store';

/**
 * Settings → Computer use (docs/computer-use.md): whether it can be offered here, and if not why — the
 * platform (Wayland without the portal, no X display, xwd or xdotool missing) or the chosen model (no
 * vision; asked again when the model changes). It is turned on per conversation, with the composer's switch, never here for all of them.
 */
export function ComputerSection() {
  const support = useComputerSupport();
  const unavailable = computerUnavailable(support);
  return (
    <section className="settings-section" aria-labelledby="section-computer" data-testid="computer-section">
      <h2 id="section-computer">Computer use</h2>
      <p className="muted small">
        The agent sees the screen and uses the mouse and keyboard, in a conversation where you turn it on (the composer’s “Computer”
        switch), with each action approved by you. A banner shows each action; Stop, or the pointer held in a screen corner, ends it.
      </p>
      <p className={unavailable && support ? 'error small' : 'small'} role="status" data-testid="computer-support">
        {unavailable ?? `Available here, with ${support?.model ?? 'this model'}.`}
      </p>
    </section>
  );
}
