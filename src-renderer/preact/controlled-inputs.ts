import { options, type VNode } from 'preact';

// React keeps a controlled checkbox, radio button or select showing the value its props give: when a
// click changes it and the handler does not change the state (the Auto-run switch asks first; a
// setting waits for main's answer), React puts the old value back. Preact leaves the element as the
// click left it until the component renders again, so the switch would show "on" while Auto-run is
// off. Here each such element's change handler puts the rendered value back after it has run; when the
// state did change, Preact's render (a microtask later, before any paint) sets the new one. Text
// fields are left alone: their handlers take every keystroke, and setting the value back would move
// the caret.

type Props = Record<string, unknown>;

const previous = options.vnode;
options.vnode = (vnode: VNode) => {
  const props = vnode.props as Props;
  const key = controlledKey(vnode.type, props);
  const handler = props.onChange;
  if (key && typeof handler === 'function') {
    const rendered = props[key];
    props.onChange = (event: Event) => {
      (handler as (e: Event) => void)(event);
      const el = event.currentTarget as (HTMLInputElement & HTMLSelectElement) | null;
      if (el && el[key] !== rendered) (el as unknown as Props)[key] = rendered;
    };
  }
  previous?.(vnode);
};

function controlledKey(type: unknown, props: Props): 'checked' | 'value' | null {
  if (type === 'input' && (props.type === 'checkbox' || props.type === 'radio') && typeof props.checked === 'boolean') return 'checked';
  if (type === 'select' && typeof props.value === 'string' && !props.multiple) return 'value';
  return null;
}
