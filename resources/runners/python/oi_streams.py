"""Block-buffered stdout/stderr for the runner, flushed on a short timer.

A terminal reads quickly, but one write per print() line costs a system call and a pty round trip
each; batching the writes is what makes 10 MB of print() lines fast. Python's own tty streams are
line-buffered, so they are replaced here.
"""
import io
import os
import sys
import threading
import time

FLUSH_INTERVAL = 0.02
_BUFFER_SIZE = 1 << 16

_out = None  # our stdout (an _OutText)
_err = None  # our stderr (an _ErrText, or a separate _OutText when fd 2 is not fd 1's file)
# Held by the timer thread while it flushes, and across fork(), so a child never inherits a
# buffer lock that the (vanished) timer thread was holding.
_flush_lock = threading.Lock()


class _BinaryView(io.BufferedIOBase):
    """What `sys.stdout.buffer` hands out: bytes go into the same buffer as text, in order."""

    def __init__(self, text, fd):
        super().__init__()
        self._text = text
        self._fd = fd

    def write(self, data):
        # Text waiting in the wrapper must reach the buffer first, or bytes would overtake it.
        self._text.flush()
        return self._text._real_buffer.write(data)

    def flush(self):
        self._text.flush()

    def fileno(self):
        return self._fd

    def isatty(self):
        return os.isatty(self._fd)

    def writable(self):
        return True

    @property
    def raw(self):
        return self._text._real_buffer.raw

    @property
    def closed(self):
        return self._text.closed

    def close(self):
        pass


class _OutText(io.TextIOWrapper):
    """A block-buffered text stream on a file descriptor (C fast path for write)."""

    @property
    def buffer(self):
        return self._binary_view


def _open_out(fd, errors):
    real = io.BufferedWriter(io.FileIO(fd, 'w', closefd=False), buffer_size=_BUFFER_SIZE)
    text = _OutText(real, encoding='utf-8', errors=errors, line_buffering=False)
    text._real_buffer = real
    text._binary_view = _BinaryView(text, fd)
    return text


class _ErrText(io.TextIOBase):
    """stderr when fd 2 is the same terminal as fd 1: writes join stdout's buffer so the two
    streams stay in the order the program wrote them, while fileno() still says 2."""

    encoding = 'utf-8'
    errors = 'backslashreplace'
    name = '<stderr>'
    mode = 'w'
    line_buffering = False

    def __init__(self, out):
        super().__init__()
        self._out = out
        self._binary_view = _BinaryView(out, 2)

    def write(self, text):
        if not isinstance(text, str):
            raise TypeError('write() argument must be str, not %s' % type(text).__name__)
        if not text:
            return 0
        # During a cell, the text is wrapped in the run's stream markers: stdout and stderr share one
        # buffer (so they keep their order), and main still knows which is which.
        markers = _stderr_markers
        try:
            self._out.write(markers[0] + text + markers[1] if markers else text)
        except UnicodeEncodeError:
            # stderr never fails on odd text (Python's own stderr uses backslashreplace).
            safe = text.encode('utf-8', 'backslashreplace').decode('utf-8')
            self._out.write(markers[0] + safe + markers[1] if markers else safe)
        return len(text)

    def flush(self):
        self._out.flush()

    def fileno(self):
        return 2

    def isatty(self):
        return os.isatty(2)

    def writable(self):
        return True

    @property
    def buffer(self):
        return self._binary_view

    def reconfigure(self, **_options):
        pass

    def close(self):
        # Closing stderr must not close the stdout buffer it shares.
        self.flush()


def _same_file(fd_a, fd_b):
    try:
        return os.path.samestat(os.fstat(fd_a), os.fstat(fd_b))
    except OSError:
        return False


def flush():
    """Flush our streams and, if user code swapped sys.stdout/sys.stderr, theirs too."""
    for stream in (_out, _err, sys.stdout, sys.stderr):
        if stream is None:
            continue
        try:
            stream.flush()
        except Exception:
            pass


_stderr_markers = None  # (start, end) while a cell runs: docs/exec-protocol.md#stderr


def mark_stderr(nonce):
    """Wraps what is written to stderr from now on in the run's stream markers (None: no more)."""
    global _stderr_markers
    _stderr_markers = None if nonce is None else (
        '\x1b]633;P;OiStream=%s:stderr\x07' % nonce, '\x1b]633;P;OiStream=%s:stdout\x07' % nonce)


def write_fence(data):
    """Write bytes after everything already buffered, and push them to the terminal now (the run's
    fence and the output position markers)."""
    if _join_stdout(data):
        return
    flush()
    try:
        _out._real_buffer.write(data)
        _out._real_buffer.flush()
        return
    except Exception:
        pass  # the user closed sys.stdout: fall back to the descriptor
    view = memoryview(data)
    while view:
        view = view[os.write(1, view):]


def _join_stdout(data):
    """The mark goes to the terminal in the same write as the text still buffered before it: one
    write instead of two at the end of every cell, so one pty wake-up for main rather than two (a
    good share of a warm run's time on a busy machine). Only while stdout is still our UTF-8 stream
    (a cell may have closed or re-encoded it); other streams the cell's text may sit in are flushed
    first, as flush() does."""
    out = _out
    if out is None or out.closed or out.encoding != 'utf-8':
        return False
    try:
        text = data.decode('ascii')
    except UnicodeDecodeError:
        return False
    for stream in (_err, sys.stdout, sys.stderr):
        if stream is None or stream is out or (isinstance(stream, _ErrText) and stream._out is out):
            continue
        try:
            stream.flush()
        except Exception:
            pass
    try:
        out.write(text)
        out.flush()
        return True
    except Exception:
        return False


def _flush_forever():
    while True:
        time.sleep(FLUSH_INTERVAL)
        with _flush_lock:
            for stream in (_out, _err):
                try:
                    stream.flush()
                except Exception:
                    pass


def _start_flusher():
    threading.Thread(target=_flush_forever, name='oi-stdout-flusher', daemon=True).start()


def _before_fork():
    _flush_lock.acquire()
    flush()


def _after_fork_in_child():
    global _flush_lock
    _flush_lock = threading.Lock()
    _start_flusher()


# Events after which other processes (or a new program image) write to the terminal: flush first,
# so `print('a'); os.system('echo b')` shows a before b.
_FLUSH_BEFORE = frozenset({
    'os.system', 'subprocess.Popen', 'os.exec', 'os.posix_spawn', 'os.spawn', 'os.fork',
    'os.forkpty', 'pty.spawn',
})


def _audit(event, _args):
    if event in _FLUSH_BEFORE:
        flush()


def _wrap_exit(real_exit):
    def _exit(status):
        flush()  # os._exit skips interpreter cleanup; do not lose what the cell printed
        real_exit(status)
    _exit.__doc__ = real_exit.__doc__
    return _exit


def install():
    global _out, _err
    _out = _open_out(1, 'surrogateescape')  # what Python's UTF-8 mode uses for stdout
    _err = _ErrText(_out) if _same_file(1, 2) else _open_out(2, 'backslashreplace')
    sys.stdout = sys.__stdout__ = _out
    sys.stderr = sys.__stderr__ = _err
    _start_flusher()
    os.register_at_fork(before=_before_fork, after_in_parent=_flush_lock_release,
                        after_in_child=_after_fork_in_child)
    if hasattr(sys, 'addaudithook'):
        sys.addaudithook(_audit)
    os._exit = _wrap_exit(os._exit)


def _flush_lock_release():
    _flush_lock.release()


def raw_output():
    """The pty's output processing off (what `stty -opost` did before main started the runner
    without that wrapper, runner-spawn.ts): the kernel copies output instead of expanding each LF
    to CRLF byte by byte, and main puts the CRs back for the terminal view. Before anything prints."""
    if os.name == 'nt':
        return
    try:
        import termios
        attrs = termios.tcgetattr(1)
        attrs[1] &= ~termios.OPOST
        termios.tcsetattr(1, termios.TCSANOW, attrs)
    except Exception:  # not a terminal (a test's pipe): nothing to turn off
        pass
