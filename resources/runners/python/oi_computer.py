"""`computer` in Python cells: the screen, mouse and keyboard, as classic Open Interpreter offered them.

Every call is a request to main over the side channel (docs/computer-use.md#in-code); the runner
itself touches no screen. Main does the action with the computer tool's rules: only in a
conversation where the person turned computer use on, each action approved (or "allow for this
task"), shown in the banner with Stop, the app's own windows never seen nor touched. A refusal
raises ComputerError with main's reason. Coordinates are pixels of the latest screenshot
(computer.display.view() or .screenshot()), which is scaled down to what the model accepts.
"""
import base64
import os
import threading

_ask = None  # ask(action dict) -> reply dict (ok, text, png, width, height)


class ComputerError(RuntimeError):
    """The action was not done: computer use is off here, the person declined, or it was refused."""


def install(ask):
    global _ask
    _ask = ask


def asker(session, flush):
    """Asks main for a screen action over the session's side channel and waits for its reply: main
    decides whether it may be done at all. One at a time, whichever thread asks."""
    lock = threading.Lock()
    counter = [0]

    def ask(action):
        with lock:
            with session.emit_lock:
                if session.nonce is None:  # between runs (a thread the cell left behind)
                    return {'ok': False, 'text': 'Not done: no cell is running.'}
                seq = counter[0]
                counter[0] += 1
                flush()  # what the cell printed before comes before the action
                session.channel.send({'type': 'computer_request', 'id': session.run_id, 'seq': seq, 'action': action})
            while True:  # a Ctrl-C here raises KeyboardInterrupt in the cell; main withdraws the action
                message = session.channel.receive()
                if message is None or message.get('type') == 'shutdown':
                    flush()
                    os._exit(0)
                if message.get('type') == 'computer_reply' and message.get('seq') == seq \
                        and message.get('id') == session.run_id:
                    return message
    return ask


def _do(action):
    reply = _ask(action)
    if not reply.get('ok'):
        raise ComputerError(str(reply.get('text') or 'the action was not done'))
    return reply


class Screenshot:
    """A screenshot as main took it: PNG bytes, and its size (the pixels coordinates refer to)."""

    def __init__(self, reply):
        self.png = base64.b64decode(reply.get('png') or '')
        self.width = int(reply.get('width') or 0)
        self.height = int(reply.get('height') or 0)

    def _repr_png_(self):
        return self.png

    def __repr__(self):
        return '<Screenshot %dx%d>' % (self.width, self.height)


def _window_id(window):
    """A window id from computer.window.find(): the dict it gave, or its id."""
    if isinstance(window, dict):
        window = window.get('id')
    if isinstance(window, bool) or not isinstance(window, int):
        raise ValueError('window must be a window id from computer.window.find() (or the dict it gave)')
    return window


class _Display:
    def screenshot(self, window=None):
        """The screen now (the app's own windows blacked out), without showing it. With `window` (from
        computer.window.find()), that window alone; x and y are then pixels of that image."""
        action = {'action': 'screenshot'}
        if window is not None:
            action['window'] = _window_id(window)
        return Screenshot(_do(action))

    def view(self, window=None):
        """The screen now (or one window), shown in the cell's output (and so to the model); also returned."""
        shot = self.screenshot(window)
        import oi_display
        oi_display.display(shot)
        return shot

    def size(self):
        """(width, height) of the screenshots: the space x and y are given in."""
        shot = self.screenshot()
        return shot.width, shot.height


class _Mouse:
    def move(self, x, y):
        return _do({'action': 'move', 'x': int(x), 'y': int(y)})['text']

    def click(self, x, y, button='left', clicks=1):
        if button not in ('left', 'right'):
            raise ValueError('button must be "left" or "right"')
        if clicks not in (1, 2):
            raise ValueError('clicks must be 1 or 2')
        name = 'right_click' if button == 'right' else 'double_click' if clicks == 2 else 'click'
        return _do({'action': name, 'x': int(x), 'y': int(y)})['text']

    def double_click(self, x, y):
        return self.click(x, y, clicks=2)

    def right_click(self, x, y):
        return self.click(x, y, button='right')

    def drag(self, x, y, to_x, to_y):
        return _do({'action': 'drag', 'x': int(x), 'y': int(y), 'to_x': int(to_x), 'to_y': int(to_y)})['text']

    def scroll(self, x, y, direction='down', amount=3):
        return _do({'action': 'scroll', 'x': int(x), 'y': int(y), 'direction': direction,
                    'amount': int(amount)})['text']


class _Keyboard:
    def write(self, text):
        """Types text into the focused window."""
        return _do({'action': 'type', 'text': str(text)})['text']

    def press(self, *keys):
        """Presses keys one after another: press('Tab'), press('Return')."""
        return [_do({'action': 'key', 'keys': str(key)})['text'] for key in keys]

    def hotkey(self, *keys):
        """Presses a combination: hotkey('ctrl', 's')."""
        return _do({'action': 'key', 'keys': '+'.join(str(key) for key in keys)})['text']


class _Window:
    def find(self, title=None, class_name=None):
        """The visible windows (never this app's own) whose title and class hold these texts, any case:
        a list of dicts with id, title, class, instance, width and height."""
        action = {'action': 'find_window'}
        if title is not None:
            action['title'] = str(title)
        if class_name is not None:
            action['class'] = str(class_name)
        return list(_do(action).get('windows') or [])

    def focus(self, window):
        """Gives a window (an id, or a dict from find()) the keyboard focus, and raises it."""
        return _do({'action': 'focus_window', 'window': _window_id(window)})['text']


class Computer:
    """computer.display, computer.mouse, computer.keyboard, computer.window, and computer.wait(seconds)."""

    ComputerError = ComputerError

    def __init__(self):
        self.display = _Display()
        self.mouse = _Mouse()
        self.keyboard = _Keyboard()
        self.window = _Window()

    def wait(self, seconds):
        return _do({'action': 'wait', 'seconds': seconds})['text']

    def __repr__(self):
        return '<computer: display.view(), mouse.click(x, y), keyboard.write(text), window.find(title) … (docs/computer-use.md)>'
