"""Open Interpreter's Python session: runs cells like a notebook in one persistent namespace.

Protocol (side channel + terminal fence): docs/exec-protocol.md. Standard library only, Python 3.8+.
The terminal (fd 0/1/2, a pty) carries only what user code prints; outputs, errors and the end of
each run travel on the OI_CHANNEL socket.
"""
import os

# Before anything could import matplotlib: a headless backend. Subprocesses inherit it too.
os.environ['MPLBACKEND'] = 'Agg'
import ast
import builtins
import functools
import json
import linecache
import signal
import socket
import sys
import threading
import types

# The runner's own modules compile in memory: the app bundle they ship in may be read-only or
# code-signed, so no __pycache__ beside them. User code keeps the usual behaviour.
_writes_bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
import oi_computer  # noqa: E402
import oi_display  # noqa: E402
import oi_files  # noqa: E402
import oi_import_cache  # noqa: E402
import oi_input  # noqa: E402
import oi_ipython  # noqa: E402
import oi_magics  # noqa: E402
import oi_streams  # noqa: E402
sys.dont_write_bytecode = _writes_bytecode

_HERE = os.path.dirname(os.path.abspath(__file__))
_CO_COROUTINE = 0x80
_COMPILE_FLAGS = getattr(ast, 'PyCF_ALLOW_TOP_LEVEL_AWAIT', 0)


class Channel:
    """Newline-delimited JSON over the socket main created."""

    def __init__(self, path):
        if os.name == 'nt':  # main listens on a named pipe there
            self._file = open(path, 'r+b', buffering=0)
            self._reader = self._file
            self._write = self._file.write
        else:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            self._reader = None
            # Between cells the runner blocks in this one call, made straight from the loop's frame.
            # Main recognises that wait from outside (its stack address) as the end of a run, so it
            # must be the same each time: a partial is never specialised by the interpreter, whose
            # specialised calls would take a shallower path after a few cells.
            self._recv = functools.partial(sock.recv, 65536)
            self._write = sock.sendall
        self._pending = b''
        self._lock = threading.Lock()

    def send(self, message):
        try:
            line = json.dumps(message, allow_nan=False, default=str)
        except ValueError:  # NaN/Infinity in a JSON view: keep the text forms only
            output = message['output']
            output['data'] = {k: v for k, v in output['data'].items() if isinstance(v, str)}
            line = json.dumps(message, default=str)
        try:
            with self._lock:
                self._write(line.encode('utf-8') + b'\n')
        except OSError:
            os._exit(0)  # main is gone; nobody is left to run cells for

    def _readline(self):
        if self._reader is not None:
            return self._reader.readline()
        while True:
            end = self._pending.find(b'\n')
            if end >= 0:
                line, self._pending = self._pending[:end + 1], self._pending[end + 1:]
                return line
            chunk = self._recv()
            if not chunk:
                return b''
            self._pending += chunk

    def receive(self):
        while True:
            line = self._readline()
            if not line:
                return None
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict):
                return message


class Session:
    def __init__(self, channel, workspace, ipython=None):
        self.channel = channel
        self.run_id = None
        # The run's nonce (bytes) while a cell runs, None between runs, and the next output's number.
        # Reentrant: a signal handler may display() while the main thread is inside emit().
        self.nonce = None
        self.seq = 0
        self.input_seq = 0
        self.emit_lock = threading.RLock()
        self.interruptible = False
        self.loop = None
        self.sigint_handler = self._on_sigint  # one object, so "is it still ours?" can be asked
        self.namespace = self._make_namespace(workspace)
        # IPython's shell when this Python has IPython (oi_ipython, loading in the background);
        # otherwise the documented subset of magics (oi_magics).
        self.ipython = ipython
        if ipython is not None:
            ipython.connect(sys.modules['__main__'], self.emit)
        self.magics = oi_magics.Magics(self.namespace, self._run_code) if ipython is None else None

    def _make_namespace(self, workspace):
        # A real __main__ module: classes defined in cells pickle, `if __name__ == "__main__":` runs.
        main = types.ModuleType('__main__')
        namespace = main.__dict__
        namespace['__builtins__'] = builtins
        namespace.update(display=oi_display.display, HTML=oi_display.HTML,
                         Markdown=oi_display.Markdown, Image=oi_display.Image,
                         files=oi_files.Files(workspace), computer=oi_computer.Computer())
        builtins.display = oi_display.display  # reachable from the user's own modules too
        self._runner_main = sys.modules.get('__main__')
        sys.modules['__main__'] = main
        return namespace

    # --- one run ---------------------------------------------------------------------------

    def run(self, message):
        with self.emit_lock:
            self.run_id = str(message.get('id', ''))
            self.nonce = str(message.get('nonce', '')).encode('ascii', 'replace')
            self.seq = 0
            self.input_seq = 0
            oi_streams.mark_stderr(self.nonce.decode('ascii'))
        count = message.get('executionCount')
        code = str(message.get('code', ''))
        oi_display.begin_cell()
        error = None
        shown = False  # IPython showed the cell's error itself
        try:
            try:
                shell = self._shell_for(code)
                self.interruptible = True
                if shell is not None:
                    shown = not self.ipython.run(code, count)
                else:
                    value = self._execute(code, count)
                    if value is not None:
                        self.namespace['_'] = value
                        self.emit(oi_display.result_output(value, count))
            except BaseException as e:
                error = e
            try:
                oi_display.show_open_figures()
            except BaseException as e:
                error = error or e
        finally:
            self.interruptible = False
        ok = (error is None or _clean_exit(error)) and not shown
        if error is not None and not _clean_exit(error):
            self.emit(_safe_error_output(error))
        error = None  # drop the traceback's frames (and the user's objects they hold)
        if signal.getsignal(signal.SIGINT) is not self.sigint_handler:
            signal.signal(signal.SIGINT, self.sigint_handler)  # interrupt must keep working
        self._finish(message.get('nonce', ''), ok)

    def _shell_for(self, code):
        # Packages installed since the last cell (pip in another process) must be importable now
        # (oi_import_cache: the import system's caches are dropped when an import would fail).
        oi_import_cache.cell_started()
        if self.ipython is None:
            return None
        shell = self.ipython.shell_for(code)
        if shell is None and self.ipython.failure is not None and self.magics is None:
            # IPython is installed but broken: the plain session with the magics subset.
            self.magics = oi_magics.Magics(self.namespace, self._run_code, self.ipython.failure)
        return shell

    def _execute(self, code, count):
        if self.magics is not None:
            code = self.magics.transform(code)
        return self._run_code(code, '<cell %s>' % (count if count is not None else '?'))

    def _run_code(self, code, filename='<cell>'):
        """Runs code in the namespace like a notebook cell; returns its last expression's value."""
        linecache.cache[filename] = (len(code), None, code.splitlines(True), filename)
        tree = compile(code, filename, 'exec', ast.PyCF_ONLY_AST | _COMPILE_FLAGS, dont_inherit=True)
        last = None
        if tree.body and isinstance(tree.body[-1], ast.Expr) and not _silenced(code, tree.body[-1]):
            last = tree.body.pop()
        self._eval(compile(tree, filename, 'exec', _COMPILE_FLAGS, dont_inherit=True))
        if last is None:
            return None
        expression = ast.Expression(last.value)
        return self._eval(compile(expression, filename, 'eval', _COMPILE_FLAGS, dont_inherit=True))

    def _eval(self, code):
        result = eval(code, self.namespace)
        if code.co_flags & _CO_COROUTINE:
            result = self._await(result)
        return result

    def _await(self, coroutine):
        import asyncio
        if self.loop is None:
            self.loop = asyncio.new_event_loop()  # kept: tasks a cell starts live on to later cells
        task = self.loop.create_task(coroutine)
        try:
            return self.loop.run_until_complete(task)
        except BaseException:
            if not task.done():
                task.cancel()
                try:
                    self.loop.run_until_complete(task)
                except BaseException:
                    pass
            raise

    def _finish(self, nonce, ok):
        try:
            cwd = os.getcwd()
        except OSError:
            cwd = None  # the cell deleted its working directory
        # Under the lock: a thread's output is either all before the fence and `done`, or after
        # them without a marker (main then drops it with its finished run).
        with self.emit_lock:
            self.nonce = None
            oi_streams.mark_stderr(None)
            oi_streams.write_fence(b'\x1b]633;P;OiFence=' + str(nonce).encode('ascii', 'replace') + b'\x07')
            self.channel.send({'type': 'done', 'id': self.run_id, 'ok': ok, 'cwd': cwd})

    def emit(self, output):
        """Sends an output, after a position marker in the terminal: text printed before it is
        flushed first, so main puts the output exactly between that text and what follows."""
        with self.emit_lock:
            if output.get('output_type') == 'update_display_data':
                # An update of a display shown before (by its id) takes no place of its own: no marker.
                self.channel.send({'type': 'update', 'id': self.run_id, 'displayId': output['displayId'],
                                   'data': output['data'], 'metadata': output['metadata']})
                return
            message = {'type': 'output', 'id': self.run_id, 'output': output}
            if self.nonce is None:
                oi_streams.flush()
            else:
                message['seq'] = self.seq
                self.seq += 1
                oi_streams.write_fence(b'\x1b]633;P;OiOutput=%s:%d\x07' % (self.nonce, message['seq']))
            self.channel.send(message)

    def ask_input(self, prompt, password):
        """Asks main for a line of input (docs/exec-protocol.md#input): a marker where the question
        stands in the output, then the request; waits for the reply. None means end-of-input."""
        with self.emit_lock:
            if self.nonce is None:
                return None  # between runs (a thread the cell left behind): nobody to ask
            seq = self.input_seq
            self.input_seq += 1
            oi_streams.write_fence(b'\x1b]633;P;OiInput=%s:%d\x07' % (self.nonce, seq))
            self.channel.send({'type': 'input_request', 'id': self.run_id, 'seq': seq,
                               'prompt': prompt, 'password': bool(password)})
        while True:  # a Ctrl-C here raises KeyboardInterrupt in the cell, as at a terminal
            message = self.channel.receive()
            if message is None or message.get('type') == 'shutdown':
                oi_streams.flush()
                os._exit(0)
            if message.get('type') == 'input_reply' and message.get('seq') == seq:
                break  # replies to questions an interrupt abandoned are skipped
        return None if message.get('eof') else str(message.get('value', ''))

    def _after_fork_in_child(self):
        # A forked child (multiprocessing) must not wait on a lock a vanished thread held, and its
        # outputs carry no marker: its numbers would collide with the parent's.
        self.emit_lock = threading.RLock()
        self.nonce = None

    def _on_sigint(self, signum, frame):
        # Ctrl-C interrupts user code only; while idle or finishing a run it is ignored.
        if self.interruptible:
            raise KeyboardInterrupt

    def serve(self):
        while True:
            message = self.channel.receive()
            if message is None or message.get('type') == 'shutdown':
                break
            if message.get('type') == 'sync':  # main's barrier at a run's end: answered after all sent before
                self.channel.send({'type': 'synced', 'token': str(message.get('token', ''))})
            elif message.get('type') == 'run':
                try:
                    self.run(message)
                except KeyboardInterrupt:
                    # Ctrl-C landed in the instant between the cell and the runner's bookkeeping.
                    self.interruptible = False
                    self._finish(message.get('nonce', ''), False)
        oi_streams.flush()
        os._exit(0)  # not sys.exit: user threads left running must not keep the session alive


def _write_stdout(text):
    sys.stdout.write(text)


def _silenced(code, node):
    """A trailing ';' after the last expression hides its value, as in notebooks."""
    lines = code.replace('\r\n', '\n').replace('\r', '\n').split('\n')
    line = lines[node.end_lineno - 1].encode('utf-8')[node.end_col_offset:]
    return line.lstrip().startswith(b';')


def _clean_exit(error):
    return isinstance(error, SystemExit) and error.code in (None, 0)


def _is_runner_file(filename):
    return os.path.dirname(filename) == _HERE


def _is_event_loop_file(filename):
    return os.sep + 'asyncio' + os.sep in filename or filename.endswith(os.sep + 'selectors.py')


def _trim_stack(summary, leading):
    """Drop the runner's frames, and the event loop's frames above the user's first frame."""
    import traceback
    frames = [f for f in summary if not _is_runner_file(f.filename)]
    if leading:
        while frames and _is_event_loop_file(frames[0].filename):
            frames.pop(0)
    return traceback.StackSummary.from_list(frames)


def error_output(error):
    import traceback
    report = traceback.TracebackException(type(error), error, error.__traceback__)
    report.stack = _trim_stack(report.stack, leading=True)
    seen, chained = set(), [report.__cause__, report.__context__]
    while chained:
        item = chained.pop()
        if item is None or id(item) in seen:
            continue
        seen.add(id(item))
        item.stack = _trim_stack(item.stack, leading=False)
        chained += [item.__cause__, item.__context__]
    try:
        evalue = str(error)
    except Exception:
        evalue = '<exception str() failed>'
    lines = [chunk.rstrip('\n') for chunk in report.format()]
    return {'output_type': 'error', 'ename': type(error).__name__, 'evalue': evalue,
            'traceback': lines}


def _safe_error_output(error):
    try:
        return error_output(error)
    except Exception:  # an exception too odd to format still fails its cell, not the session
        return {'output_type': 'error', 'ename': type(error).__name__, 'evalue': '', 'traceback': []}


def main():
    oi_streams.raw_output()
    # First of all, so IPython's import overlaps everything else this runner and main do.
    ipython = oi_ipython.IPythonSupport() if oi_ipython.wanted() else None
    channel = Channel(os.environ.pop('OI_CHANNEL'))  # popped: subprocesses have no use for it
    workspace = os.environ.get('OI_WORKSPACE') or os.getcwd()
    oi_streams.install()
    session = Session(channel, workspace, ipython)
    signal.signal(signal.SIGINT, session.sigint_handler)
    if hasattr(os, 'register_at_fork'):
        os.register_at_fork(after_in_child=session._after_fork_in_child)
        if ipython is not None:
            os.register_at_fork(before=ipython.before_fork)
    oi_display.set_emitter(session.emit)
    oi_display.install_plain_help()
    oi_input.install(session.ask_input, _write_stdout)
    oi_computer.install(oi_computer.asker(session, oi_streams.flush))
    sys.meta_path.insert(0, oi_display.MatplotlibHook())
    oi_import_cache.install()
    # Like the interactive interpreter: imports find modules in the current directory, not here.
    if sys.path and os.path.abspath(sys.path[0] or '.') == _HERE:
        sys.path[0] = ''
    sys.argv = ['']
    import faulthandler
    faulthandler.enable()  # a segfault prints where it happened before the session dies
    version = '%d.%d.%d' % sys.version_info[:3]
    channel.send({'type': 'hello', 'language': 'python', 'version': version, 'pid': os.getpid(),
                  'protocol': 2})
    session.serve()


if __name__ == '__main__':
    main()
