"""IPython's InteractiveShell inside the runner: cells run through IPython's own machinery (magics,
!cmd, the display protocol, its tracebacks) while outputs keep the runner's transport: display data,
results and errors go on the side channel behind position markers (docs/exec-protocol.md), text on
the terminal.

Imported in a background thread by oi_ipython (IPython takes a few hundred milliseconds to import);
`build()` makes the shell there too, on a scratch namespace; `attach()` then points it at the
session's namespace in the main thread, between cells.
"""
import base64
import os
import signal
import subprocess
import sys
import tempfile
import threading
import types
import warnings

from IPython.core.displayhook import DisplayHook
from IPython.core.displaypub import DisplayPublisher
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config

import oi_display

# Binary payloads travel as base64 text, as Jupyter keeps them.
_BINARY = frozenset({'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'})

# Interactive matplotlib backends need a window or a browser; here figures are shown inline.
_INLINE_ALIASES = frozenset({None, '', 'auto', 'inline'})


def _jsonable(bundle):
    out = {}
    for mime, value in (bundle or {}).items():
        if isinstance(value, (bytes, bytearray, memoryview)):
            value = bytes(value)
            value = base64.b64encode(value).decode('ascii') if mime in _BINARY or not mime.startswith('text/') \
                else value.decode('utf-8', 'replace')
        out[mime] = value
    return out


class OiDisplayPublisher(DisplayPublisher):
    """display(), IPython.display objects and inline figures: a display_data output on the channel."""

    emit = None  # set by attach(): the session's emit

    def publish(self, data, metadata=None, source=None, *, transient=None, update=False, **kwargs):
        if self.emit is None:
            return
        display_id = (transient or {}).get('display_id')
        output = {'output_type': 'display_data', 'data': _jsonable(data), 'metadata': dict(metadata or {})}
        if display_id is not None:
            output['displayId'] = str(display_id)
        if update:
            # update_display / handle.update: every display with this id takes the new data (main
            # applies it, in this cell and earlier ones, as Jupyter front ends do); an update without
            # an id changes nothing, as in Jupyter.
            if display_id is None:
                return
            output['output_type'] = 'update_display_data'
        self.emit(output)

    def clear_output(self, wait=False):
        # Jupyter empties the cell's outputs; the app keeps what a cell showed.
        pass


class OiDisplayHook(DisplayHook):
    """The value of a cell's last expression: an execute_result with the cell's count."""

    emit = None

    def start_displayhook(self):
        self._result = {'output_type': 'execute_result', 'execution_count': self.prompt_count,
                        'data': {}, 'metadata': {}}

    def write_output_prompt(self):
        pass

    def write_format_data(self, format_dict, md_dict=None):
        self._result['data'] = _jsonable(format_dict)
        self._result['metadata'] = dict(md_dict or {})

    def finish_displayhook(self):
        result, self._result = getattr(self, '_result', None), None
        if result and result['data'] and self.emit is not None:
            self.emit(result)


class OiShell(InteractiveShell):
    display_pub_class = OiDisplayPublisher
    displayhook_class = OiDisplayHook

    emit_error = None  # set by attach()

    def should_run_async(self, raw_cell, *, transformed_cell=None, preprocessing_exc_tuple=None):
        # IPython compiles every cell once more only to see whether it awaits at top level. Code can
        # only be a coroutine through the words `await` or `async` (await, async for/with, async
        # comprehensions), so a cell without either is not one: that compile is skipped for it.
        if isinstance(transformed_cell, str) and 'await' not in transformed_cell and 'async' not in transformed_cell:
            return False
        return super().should_run_async(raw_cell, transformed_cell=transformed_cell,
                                        preprocessing_exc_tuple=preprocessing_exc_tuple)

    def init_virtualenv(self):
        # The app chose this Python on purpose (settings or the workspace's .venv): no advice about it.
        pass

    def showtraceback(self, *args, **kwargs):
        # Main repeats Ctrl-C every 250 ms until a run ends. One landing while the first one's
        # KeyboardInterrupt is being formatted and sent would cut the report short: IPython catches it
        # there and prints only "KeyboardInterrupt" to stderr, so the cell's error output is lost (seen
        # under load). The error is already on its way out; Ctrl-C is ignored until it has gone.
        if threading.current_thread() is not threading.main_thread():
            return super().showtraceback(*args, **kwargs)
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            return super().showtraceback(*args, **kwargs)
        finally:
            signal.signal(signal.SIGINT, previous if previous is not None else signal.default_int_handler)

    def _showtraceback(self, etype, evalue, stb):
        # Jupyter's error output: IPython's own formatted lines, colours and all. sys.exit(0) is a
        # script ending normally here (as in the runner without IPython), not an error.
        if issubclass(etype, SystemExit) and getattr(evalue, 'code', None) in (None, 0):
            return
        if self.emit_error is not None:
            try:
                text = str(evalue)
            except Exception:
                text = '<exception str() failed>'
            self.emit_error({'output_type': 'error', 'ename': etype.__name__, 'evalue': text,
                             'traceback': list(stb)})

    def system(self, cmd):
        """!cmd and %pip/%conda: the command runs on the cell's terminal, like in a console.

        IPython's own system_raw does this too, but warns about `!pip` and `!cd`; and Jupyter's piped
        version gives the program no terminal (no colours, no progress bars, no input)."""
        cmd = self.var_expand(cmd, depth=1)
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        try:
            code = subprocess.call(cmd, shell=True, executable=os.environ.get('SHELL') or None)
        except KeyboardInterrupt:
            print('\n' + self.get_exception_only(), file=sys.stderr)
            code = 130
        self.user_ns['_exit_code'] = -(code - 128) if code > 128 else code

    system_raw = system
    system_piped = system

    def enable_gui(self, gui=None):
        # No GUI event loop here; figures and widgets show as outputs.
        pass

    def enable_matplotlib(self, gui=None):
        if gui not in _INLINE_ALIASES:
            print('%%matplotlib %s: interactive windows are not available here; figures are shown inline.' % gui,
                  file=sys.stderr)
        # In a Jupyter kernel the inline backend is on from the start, so `%matplotlib inline` keeps the
        # figure formats a cell chose before it (set_matplotlib_formats('pdf', 'png')). Here the switch
        # from the runner's backend resets them to the default: put back what was chosen.
        chosen = _figure_printers(self)
        result = super().enable_matplotlib('inline')
        if set(chosen) != {'image/png'} or chosen['image/png'] is not oi_display.figure_png:
            _set_figure_printers(self, chosen)
        return result


def _figure_printers(shell):
    """The formatters a matplotlib Figure has now, by MIME type (none before matplotlib is imported)."""
    figure = sys.modules.get('matplotlib.figure')
    if figure is None:
        return {'image/png': oi_display.figure_png}
    found = {}
    for mime, formatter in shell.display_formatter.formatters.items():
        try:
            found[mime] = formatter.lookup_by_type(figure.Figure)
        except KeyError:
            pass
    return found


def _set_figure_printers(shell, printers):
    from matplotlib.figure import Figure
    for mime, formatter in shell.display_formatter.formatters.items():
        formatter.pop(Figure, None)
        if mime in printers:
            formatter.for_type(Figure, printers[mime])


def _ipython_dir():
    """IPython's folder (~/.ipython, or IPYTHONDIR), or a private temp one when that cannot be written
    (a sandbox, a read-only home): IPython would otherwise warn about it in the first cell's output."""
    wanted = os.environ.get('IPYTHONDIR') or os.path.join(os.path.expanduser('~'), '.ipython')
    try:
        os.makedirs(wanted, exist_ok=True)
        if os.access(wanted, os.W_OK):
            return wanted
    except OSError:
        pass
    return tempfile.mkdtemp(prefix='oi-ipython-')


def build():
    """The shell, on a scratch namespace (run in the loader thread: nothing the running cell uses)."""
    config = Config()
    config.HistoryManager.enabled = False  # no SQLite file per session; In/Out still work
    # sys.exit(0) ends a script cleanly in this app (oi_runner) rather than being shown as an error.
    warnings.filterwarnings('ignore', message="To exit: use 'exit', 'quit', or Ctrl-D.")
    scratch = types.ModuleType('__oi_ipython_scratch__')
    shell = OiShell.instance(config=config, user_module=scratch, user_ns=scratch.__dict__,
                             ipython_dir=_ipython_dir())
    shell.display_formatter.formatters['image/png'].for_type_by_name(
        'matplotlib.figure', 'Figure', oi_display.figure_png)
    import oi_imports  # the runner's own modules are not on sys.path
    shell.register_magics(oi_imports.runner_module('oi_kernel_magics').KernelMagics)
    return shell


def attach(shell, main_module, emit):
    """Points the shell at the session's namespace and output channel (main thread, between cells)."""
    OiDisplayPublisher.emit = staticmethod(emit)
    OiDisplayHook.emit = staticmethod(emit)
    shell.emit_error = emit
    shell.init_create_namespaces(main_module, main_module.__dict__)
    shell.init_sys_modules()
    shell.init_user_ns()
    namespace = main_module.__dict__
    # display() becomes IPython's (its formatters know pandas, sympy and whatever registered itself),
    # unless a cell already bound the name to something else. The runner's HTML, Markdown and Image
    # stay: IPython renders them the same, and their text form is their source, which is what the
    # model reads (IPython's own say "<IPython.core.display.HTML object>").
    import IPython.display as ipd
    if namespace.get('display') is oi_display.display:
        namespace['display'] = ipd.display


def run_cell(shell, code, count):
    """Runs one cell; True when it finished without an error (sys.exit(0) counts as finished)."""
    if count is not None and shell.execution_count != count:
        shell.execution_count = count  # a trait: setting it validates and notifies, so only when it moves
    result = shell.run_cell(code, store_history=True)
    error = result.error_before_exec or result.error_in_exec
    return error is None or (isinstance(error, SystemExit) and error.code in (None, 0))


def publish(shell, output):
    """An output the runner itself makes (figures shown by plt.show()) goes through IPython's
    publisher, so %%capture and the like see it as they see every display."""
    if output.get('output_type') == 'display_data':
        shell.display_pub.publish(output.get('data', {}), output.get('metadata', {}))
        return True
    return False
