"""IPython semantics for the session when its Python has IPython (Debian's python3-ipython, any
environment with ipykernel), without paying IPython's import time at start.

IPython takes a few hundred milliseconds to import, longer than this runner takes to start. So it is
imported, and its shell built on a scratch namespace, in a background thread from the moment the
runner starts; the runner says hello at once. A cell that arrives before the shell is ready runs as
plain Python when it is plain Python (it compiles, and names nothing IPython provides: get_ipython,
display, In/Out…), exactly as it would under IPython but for the text form of its last value and
traceback; any other cell waits for the shell. Once ready, the shell is attached to the session's
namespace in the main thread between cells, and every later cell runs through it.

Without IPython (or with OI_IPYTHON=0), oi_magics gives the documented subset of magics instead.
"""
import importlib.util
import os
import re
import sys
import threading
import types

import oi_imports

# Names a cell may use that only exist (or only behave as in Jupyter) once IPython's shell is there;
# and jedi, which cannot be imported while IPython loads (_hide_jedi).
_IPYTHON_NAMES = re.compile(r'\b(?:get_ipython|IPython|display|In|Out|_ih|_oh|_dh|_ii*|_i\d+|_\d+|__|___|exit|quit|_exit_code|jedi)\b')


def _plain_python(code):
    if _IPYTHON_NAMES.search(code):
        return False
    try:
        compile(code, '<cell>', 'exec', 0x2000, dont_inherit=True)  # PyCF_ALLOW_TOP_LEVEL_AWAIT
        return True
    except (SyntaxError, ValueError, OverflowError):
        return False


def wanted():
    """IPython is used when this Python can import it, unless OI_IPYTHON=0 says not to."""
    if os.environ.get('OI_IPYTHON', '1') == '0':
        return False
    try:
        return importlib.util.find_spec('IPython') is not None
    except (ImportError, ValueError):
        return False


def _embed(**kwargs):
    """IPython.embed(), importing the terminal shell only when someone asks for it."""
    from IPython.terminal.embed import embed
    return embed(**kwargs)


def _stub_terminal_embed():
    """IPython's package imports its terminal front end (prompt_toolkit and all) only to offer
    IPython.embed(): over a third of its import time, for nothing a notebook uses. While IPython
    loads, that module is a stand-in whose embed() imports the real one when called; afterwards the
    stand-in is removed, so `import IPython.terminal.embed` gets the real module."""
    if 'IPython' in sys.modules or 'IPython.terminal.embed' in sys.modules:
        return None
    stub = types.ModuleType('IPython.terminal.embed')
    stub.embed = _embed
    sys.modules['IPython.terminal.embed'] = stub
    return stub


def _unstub(stub):
    if stub is None:
        return
    if sys.modules.get('IPython.terminal.embed') is stub:
        del sys.modules['IPython.terminal.embed']
    terminal = sys.modules.get('IPython.terminal')
    if terminal is not None and getattr(terminal, 'embed', None) is stub:
        delattr(terminal, 'embed')


def _hide_jedi():
    """IPython's completer imports jedi, when installed, for tab completion: a sixth of IPython's
    import time, and nothing here completes. While IPython loads, `import jedi` fails (a None entry in
    sys.modules), so IPython completes without it; afterwards the entry is removed and cells import
    jedi as usual. True when it was hidden."""
    if 'jedi' in sys.modules or 'IPython' in sys.modules:
        return False
    sys.modules['jedi'] = None
    return True


def _unhide_jedi(hidden):
    if hidden and 'jedi' in sys.modules and sys.modules['jedi'] is None:
        del sys.modules['jedi']


class IPythonSupport:
    def __init__(self):
        self._main = None
        self._emit = None
        self.shell = None
        self.failure = None  # why IPython could not be loaded, for the "needs IPython" message
        self._module = None
        self._built = None
        self._thread = threading.Thread(target=self._load, name='oi-ipython-load', daemon=True)
        self._thread.start()

    def connect(self, main_module, emit):
        """The session's namespace and output channel, for when the shell is attached."""
        self._main = main_module
        self._emit = emit

    def _load(self):
        stub = _stub_terminal_embed()
        jedi_hidden = _hide_jedi()
        deferring = None
        try:
            deferred_imports = oi_imports.runner_module('oi_deferred_imports')
            deferring = deferred_imports.start()
            module = oi_imports.runner_module('oi_shell')
            self._built = module.build()
            self._module = module
        except BaseException as e:  # a broken IPython install leaves the session plain, not dead
            self.failure = '%s: %s' % (type(e).__name__, e)
        finally:
            if deferring is not None:
                deferred_imports.stop(deferring)
            _unstub(stub)
            _unhide_jedi(jedi_hidden)

    def shell_for(self, code):
        """The shell to run `code` in, or None to run it as plain Python."""
        if self.shell is None:
            if self._thread.is_alive() and _plain_python(code):
                return None
            self._thread.join()
            if self._module is None:
                return None
            self._attach()
        return self.shell

    def _attach(self):
        import oi_display
        self._module.attach(self._built, self._main, self._emit)
        sys.modules.pop('__oi_ipython_scratch__', None)
        shell, module, emit = self._built, self._module, self._emit
        # Figures shown by the runner's matplotlib backend go through IPython's publisher too.
        oi_display.set_emitter(lambda output: module.publish(shell, output) or emit(output))
        self.shell = shell

    def run(self, code, count):
        return self._module.run_cell(self.shell, code, count)

    def before_fork(self):
        # A child forked while the loader holds import locks could hang on its first import.
        if self._thread.is_alive() and threading.current_thread() is not self._thread:
            self._thread.join()
