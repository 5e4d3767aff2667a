import type { ToolSpec } from './provider';

// The `computer` tool (docs/computer-use.md): one call is one action on the screen, and every call
// answers with a screenshot taken after it. Coordinates are pixels of the last screenshot the model got
// (scaled down to what it accepts); screen-geometry.ts maps them to the real screen.

export const COMPUTER_TOOL_NAME = 'computer';
/** The language a computer call's cell records (its code is the call's JSON arguments). */
export const COMPUTER_LANGUAGE = 'computer';

const ACTIONS = [
  'screenshot',
  'move',
  'click',
  'double_click',
  'right_click',
  'drag',
  'type',
  'key',
  'scroll',
  'wait',
  'find_window',
  'focus_window',
] as const;
export type ComputerActionName = (typeof ACTIONS)[number];

export type ComputerAction =
  /** With `window`: that window alone (an id find_window gave), and later coordinates are its screenshot's. */
  | { action: 'screenshot'; window?: number }
  | { action: 'move' | 'click' | 'double_click' | 'right_click'; x: number; y: number }
  | { action: 'drag'; x: number; y: number; to_x: number; to_y: number }
  | { action: 'type'; text: string }
  | { action: 'key'; keys: string }
  | { action: 'scroll'; x: number; y: number; direction: 'up' | 'down' | 'left' | 'right'; amount: number }
  | { action: 'wait'; seconds: number }
  | { action: 'find_window'; title?: string; class?: string }
  | { action: 'focus_window'; window: number };

export const computerTool: ToolSpec = {
  name: COMPUTER_TOOL_NAME,
  description:
    "Use the person's screen, mouse and keyboard (they watch, approve each action, and can stop it). Each call does one action and returns a screenshot taken after it, with the pointer drawn. " +
    'x and y are pixels of the latest screenshot (0,0 top left). Start with "screenshot". "type" types into the focused window; ' +
    '"key" presses a combination of X key names joined by "+", e.g. "ctrl+s", "Return", "Tab", "alt+F4". ' +
    '"find_window" lists the windows (by part of their title and/or class) with their ids; "focus_window" gives one the keyboard focus; ' +
    '"screenshot" with "window" shows that window alone, and x and y are then pixels of that image until the next whole-screen screenshot.',
  parameters: {
    type: 'object',
    properties: {
      action: { type: 'string', enum: [...ACTIONS] },
      x: { type: 'integer', description: 'Screenshot x (move, click, double_click, right_click, drag start, scroll).' },
      y: { type: 'integer', description: 'Screenshot y.' },
      to_x: { type: 'integer', description: 'Where a drag ends (x).' },
      to_y: { type: 'integer', description: 'Where a drag ends (y).' },
      text: { type: 'string', description: 'Text to type.' },
      keys: { type: 'string', description: 'Key combination, e.g. "ctrl+a".' },
      direction: { type: 'string', enum: ['up', 'down', 'left', 'right'] },
      amount: { type: 'integer', description: 'Wheel clicks to scroll (1–30).' },
      seconds: { type: 'number', description: 'Seconds to wait (up to 10).' },
      window: { type: 'integer', description: 'A window id from find_window (focus_window; screenshot of that window alone).' },
      title: { type: 'string', description: 'find_window: part of the title, any case.' },
      class: { type: 'string', description: 'find_window: part of the X class or instance name, any case.' },
    },
    required: ['action'],
    additionalProperties: false,
  },
};

const KEYS = /^[A-Za-z0-9_]+(\+[A-Za-z0-9_]+)*$/;

/** The model's arguments checked into one action, or an error naming what is wrong. */
export function parseComputerAction(args: string): { ok: true; action: ComputerAction } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(args.trim() === '' ? '{}' : args);
  } catch {
    return { ok: false, error: 'the computer arguments are not valid JSON' };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return { ok: false, error: 'the computer arguments must be a JSON object' };
  const a = value as Record<string, unknown>;
  const action = a.action;
  if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action))
    return { ok: false, error: `"action" must be one of ${ACTIONS.join(', ')}` };
  const int = (key: string): number | string => (Number.isInteger(a[key]) ? (a[key] as number) : `"${key}" must be a whole number`);
  const point = () => {
    const x = int('x');
    const y = int('y');
    return typeof x === 'string' ? x : typeof y === 'string' ? y : { x, y };
  };
  switch (action as ComputerActionName) {
    case 'screenshot': {
      if (a.window === undefined) return { ok: true, action: { action: 'screenshot' } };
      const window = windowId(a.window);
      return typeof window === 'string' ? { ok: false, error: window } : { ok: true, action: { action: 'screenshot', window } };
    }
    case 'find_window': {
      const filter: { title?: string; class?: string } = {};
      for (const key of ['title', 'class'] as const) {
        const value = a[key];
        if (value === undefined) continue;
        if (typeof value !== 'string' || value.length > 200) return { ok: false, error: `"${key}" must be text of at most 200 characters` };
        if (value !== '') filter[key] = value;
      }
      return { ok: true, action: { action: 'find_window', ...filter } };
    }
    case 'focus_window': {
      const window = windowId(a.window);
      return typeof window === 'string' ? { ok: false, error: window } : { ok: true, action: { action: 'focus_window', window } };
    }
    case 'move':
    case 'click':
    case 'double_click':
    case 'right_click': {
      const p = point();
      return typeof p === 'string' ? { ok: false, error: p } : { ok: true, action: { action: action as 'move', ...p } };
    }
    case 'drag': {
      const p = point();
      const tx = int('to_x');
      const ty = int('to_y');
      if (typeof p === 'string') return { ok: false, error: p };
      if (typeof tx === 'string' || typeof ty === 'string') return { ok: false, error: typeof tx === 'string' ? tx : String(ty) };
      return { ok: true, action: { action: 'drag', ...p, to_x: tx, to_y: ty } };
    }
    case 'type':
      if (typeof a.text !== 'string' || a.text === '') return { ok: false, error: '"type" needs "text", the text to type' };
      if (a.text.length > 5000) return { ok: false, error: '"text" is over 5,000 characters; type it in parts' };
      return { ok: true, action: { action: 'type', text: a.text } };
    case 'key':
      if (typeof a.keys !== 'string' || !KEYS.test(a.keys))
        return { ok: false, error: '"key" needs "keys": X key names joined by "+", such as "ctrl+s" or "Return"' };
      return { ok: true, action: { action: 'key', keys: a.keys } };
    case 'scroll': {
      const p = point();
      if (typeof p === 'string') return { ok: false, error: p };
      const direction = a.direction ?? 'down';
      if (direction !== 'up' && direction !== 'down' && direction !== 'left' && direction !== 'right')
        return { ok: false, error: '"direction" must be up, down, left or right' };
      const amount = a.amount ?? 3;
      if (!Number.isInteger(amount) || (amount as number) < 1 || (amount as number) > 30)
        return { ok: false, error: '"amount" must be a whole number from 1 to 30' };
      return { ok: true, action: { action: 'scroll', ...p, direction, amount: amount as number } };
    }
    case 'wait': {
      const seconds = a.seconds ?? 1;
      if (typeof seconds !== 'number' || !(seconds > 0) || seconds > 10)
        return { ok: false, error: '"seconds" must be more than 0 and at most 10' };
      return { ok: true, action: { action: 'wait', seconds } };
    }
  }
}

/** An X window id as find_window gives it (a positive 32-bit number), or why the value is not one. */
function windowId(value: unknown): number | string {
  return Number.isInteger(value) && (value as number) > 0 && (value as number) < 2 ** 32
    ? (value as number)
    : '"window" must be a window id, a whole number that find_window gave';
}

/** One line saying what an action does, for the approval, the banner and the model. */
export function describeAction(a: ComputerAction): string {
  switch (a.action) {
    case 'screenshot':
      return a.window === undefined ? 'Take a screenshot' : `Take a screenshot of window ${a.window}`;
    case 'find_window': {
      const by = [
        a.title !== undefined ? `titled like ${JSON.stringify(a.title)}` : '',
        a.class !== undefined ? `of class ${JSON.stringify(a.class)}` : '',
      ];
      return ['Find the windows', ...by.filter(Boolean)].join(' ');
    }
    case 'focus_window':
      return `Focus window ${a.window}`;
    case 'move':
      return `Move the pointer to (${a.x}, ${a.y})`;
    case 'click':
      return `Click at (${a.x}, ${a.y})`;
    case 'double_click':
      return `Double-click at (${a.x}, ${a.y})`;
    case 'right_click':
      return `Right-click at (${a.x}, ${a.y})`;
    case 'drag':
      return `Drag from (${a.x}, ${a.y}) to (${a.to_x}, ${a.to_y})`;
    case 'type':
      return `Type ${JSON.stringify(a.text.length > 80 ? `${a.text.slice(0, 80)}…` : a.text)}`;
    case 'key':
      return `Press ${a.keys}`;
    case 'scroll':
      return `Scroll ${a.direction} ${a.amount} at (${a.x}, ${a.y})`;
    case 'wait':
      return `Wait ${a.seconds} s`;
  }
}
