"""Input requests: input(), getpass.getpass() and reads of sys.stdin ask main over the side channel.

A cell runs under a terminal nobody types into directly, so a read of it would wait until the run
timed out. Instead the runner asks main (docs/exec-protocol.md#input), which asks the person, or
answers end-of-input at once when there is nobody to ask. Like a terminal, the answer is echoed
after the prompt (a password is not). Subprocesses still inherit the real terminal (fd 0); main
notices when one of them waits on it.
"""
import builtins
import getpass
import io
import os
import sys
import threading

_ask = None  # ask(prompt, password) -> the line typed (no newline), or None for end-of-input
_write = None  # writes text to the cell's stdout, after what it printed
_lock = threading.Lock()


def install(ask, write):
    """ask(prompt, password) -> str | None; write(text) puts text on the cell's stdout."""
    global _ask, _write
    _ask, _write = ask, write
    builtins.input = _input
    getpass.getpass = _getpass
    stdin = _Stdin()
    sys.stdin = sys.__stdin__ = stdin


def _request(prompt, password):
    with _lock:  # one question at a time, whichever thread asks
        if prompt:
            _write(prompt)
        line = _ask(prompt, password)
        if line is not None:
            _write('\n' if password else line + '\n')
        return line


def _input(prompt=''):
    """input(): the prompt is shown, main is asked for a line; end-of-input raises EOFError."""
    line = _request(str(prompt), False)
    if line is None:
        raise EOFError('EOF when reading a line (no input was given)')
    return line


def _getpass(prompt='Password: ', stream=None):
    """getpass.getpass(): as input(), but the person's answer is masked and never echoed."""
    line = _request(str(prompt), True)
    if line is None:
        raise EOFError('no password was given')
    return line


class _Stdin(io.TextIOBase):
    """sys.stdin: each line read is a question to main; the prompt is whatever the cell printed
    last on that line. fileno() is still the terminal, for subprocesses handed sys.stdin."""

    encoding = 'utf-8'
    errors = 'strict'
    name = '<stdin>'
    mode = 'r'

    def __init__(self):
        super().__init__()
        self._pending = ''
        self._binary = _BinaryStdin(self)

    @property
    def buffer(self):
        return self._binary

    def readable(self):
        return True

    def fileno(self):
        return 0

    def isatty(self):
        try:
            return os.isatty(0)
        except OSError:
            return False

    def _next_line(self):
        """The next line with its newline, '' at end-of-input."""
        if self._pending:
            line, self._pending = self._pending, ''
            return line
        answer = _request('', False)
        return '' if answer is None else answer + '\n'

    def readline(self, size=-1):
        line = self._next_line()
        if size is not None and 0 <= size < len(line):
            line, self._pending = line[:size], line[size:]
        return line

    def read(self, size=-1):
        parts, count = [], 0
        while size is None or size < 0 or count < size:
            line = self.readline(-1 if size is None or size < 0 else size - count)
            if not line:
                break
            parts.append(line)
            count += len(line)
        return ''.join(parts)

    def readlines(self, hint=-1):
        lines = []
        for line in iter(self.readline, ''):
            lines.append(line)
            if 0 < hint <= sum(map(len, lines)):
                break
        return lines

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def close(self):
        pass  # closing stdin in a cell must not close it for the next one


class _BinaryStdin(io.BufferedIOBase):
    """sys.stdin.buffer: the same lines as bytes."""

    def __init__(self, text):
        super().__init__()
        self._text = text

    def readable(self):
        return True

    def fileno(self):
        return 0

    def isatty(self):
        return self._text.isatty()

    def read(self, size=-1):
        return self._text.read(size).encode('utf-8')

    def read1(self, size=-1):
        return self._text.readline(size).encode('utf-8')

    def readline(self, size=-1):
        return self._text.readline(size).encode('utf-8')

    def close(self):
        pass
