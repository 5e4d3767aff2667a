import { useApp } from '../../state/app-store';
import { computerUnavailable, useComputerSupport } from '../../state/computer-store';
import { setComputerUse } from './computer-actions';
import './computer.css';

/**
 * The composer's computer-use switch (docs/computer-use.md): off in every new conversation; on, a model
 * that sees images gets the `computer` tool, each action still asked for. Where computer use cannot work
 * (no X display, Wayland, xdotool missing, a model without vision) it is disabled and says why.
 */
export function ComputerSwitch() {
  const on = useApp((s) => s.current?.conv.computerUse ?? false);
  const support = useComputerSupport();
  const unavailable = computerUnavailable(support);
  // Turning it off stays possible whatever the reason it could not be turned on.
  const disabled = unavailable !== null && !on;
  return (
    <button
      className={`small computer-switch${on ? ' on' : ''}`}
      role="switch"
      aria-checked={on}
      aria-label="Computer use"
      aria-disabled={disabled}
      data-testid="computer-switch"
      title={
        unavailable ??
        (on
          ? 'Computer use is on here: the agent may see the screen and use the mouse and keyboard, each action approved by you. Click to turn it off.'
          : 'Computer use: let the agent see the screen and use the mouse and keyboard in this conversation (you approve each action).')
      }
      onClick={() => {
        if (!disabled) void setComputerUse(!on);
      }}
    >
      Computer{on ? ' · on' : ''}
    </button>
  );
}
