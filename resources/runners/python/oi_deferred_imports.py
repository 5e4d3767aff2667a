"""Modules IPython imports when it loads but uses only later: stack_data and pydoc (tracebacks),
asyncio (%%script, top-level await), pexpect (`x = !cmd`), pstats (%prun), urllib.request with
http.client, email and ssl (%pastebin, %load URL), logging.config (traitlets' dictConfig, for
applications), and a few small ones (DEFERRED). Together they are over a third of what loading
IPython costs, and a first cell needs none of them. (Code that looks at every module's `__file__`,
as inspect.getmodule does for the first traceback, runs them all then: correct, and paid once.)

While IPython loads, the loader thread's imports of these get a module whose code has not run yet;
it runs on first use, from whichever thread uses it, under the import system's lock for its name
(other threads wait for it, and the import system's deadlock check sees the waits). The module object is the real one throughout: once run it is a plain module, so `import asyncio`
in a cell, now or later, gets the very module IPython holds. Only the loader thread's imports are
deferred (cells running meanwhile import as usual), and only while it loads.

`from urllib.request import Request, urlopen` reads the names at once; for the few names IPython
imports that way (STAND_INS), the loader thread gets a function that calls the real one, running
the module on the first call. Anyone else reading a name runs the module and gets the real thing.

The standard library's LazyLoader is not enough on Python 3.11: it runs the module when an import
statement names it a second time (the import system reads `__spec__`), and two threads touching
the module at once can see it half-run.
"""
import importlib._bootstrap as _bootstrap
import importlib.machinery
import sys
import threading
import types

import oi_imports

# Module → names imported from it with `from … import` while IPython loads (called, never subclassed).
STAND_INS = {
    'logging.config': ('dictConfig',),
    'urllib.request': ('Request', 'urlopen'),
}
# Each checked to run no code at import that others rely on, and none replaces itself in sys.modules
# (pygments' lexers and formatters do, so they are not here).
DEFERRED = frozenset(STAND_INS) | frozenset({
    'asyncio', 'pexpect', 'pstats', 'pydoc', 'stack_data',
    # Smaller ones, a tenth of the load together: shutil's compressors, history's pickle, %prun's
    # cProfile, the pager, and what only their own users need.
    'IPython.core.page', 'bz2', 'cProfile', 'code', 'dataclasses', 'ipaddress', 'lzma', 'mimetypes', 'pickle', 'uuid',
})

_PYTHON_LOADERS = (importlib.machinery.SourceFileLoader, importlib.machinery.SourcelessFileLoader)

# Read by the import system on a module it finds in sys.modules; reading them runs nothing.
_PASS_THROUGH = frozenset({'__class__', '__dict__', '__spec__', '__name__', '__loader__', '__package__'})


def _get(module, name):
    return types.ModuleType.__getattribute__(module, name)


class _DeferredModule(types.ModuleType):
    def __getattribute__(self, name):
        if name not in _PASS_THROUGH:
            state = _get(self, '__spec__').loader_state
            if name == '__path__' and '__path__' not in _get(self, '__dict__'):
                pass  # `from m import x` asks whether m is a package; a module's code cannot make it one
            elif name in state['stand_ins'] and threading.current_thread() is state['thread']:
                return state['stand_ins'][name]
            else:
                _run(self)
        return types.ModuleType.__getattribute__(self, name)

    def __setattr__(self, name, value):
        _run(self)
        types.ModuleType.__setattr__(self, name, value)

    def __delattr__(self, name):
        _run(self)
        types.ModuleType.__delattr__(self, name)


def _run(module):
    """Runs the module's code once; the thread running it sees it as it stands meanwhile."""
    spec = _get(module, '__spec__')
    state = spec.loader_state
    lock = _import_lock(spec.name, state)
    try:
        lock.acquire()
    except RuntimeError:
        # The import system's deadlock check: the thread running this module waits for an import
        # this thread holds (`import asyncio.events` here while asyncio's code imports it there).
        # As with any circular import, the module is used as it stands.
        return
    try:
        if state['running'] or _get(module, '__class__') is not _DeferredModule:
            return
        state['running'] = True
        loader = state['loader']
        spec.loader = loader
        _get(module, '__dict__')['__loader__'] = loader
        try:
            loader.exec_module(module)
        except BaseException:
            # As after a failed import: the name is free for the next attempt.
            if sys.modules.get(spec.name) is module:
                del sys.modules[spec.name]
            raise
        finally:
            object.__setattr__(module, '__class__', types.ModuleType)
            state['running'] = False
    finally:
        lock.release()


def _import_lock(name, state):
    """The import system's own lock for the module's name, so that a thread waiting for it and a
    thread importing something it needs are seen as the deadlock they are (as between two imports);
    a lock of the module's own where that private API is missing."""
    try:
        return _bootstrap._get_module_lock(name)
    except AttributeError:
        return state['lock']


def _stand_in(module, name):
    def call(*args, **kwargs):
        return getattr(module, name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    return call


class _DeferringLoader:
    def __init__(self, loader, thread):
        self.loader = loader
        self.thread = thread

    def create_module(self, spec):
        return self.loader.create_module(spec)

    def exec_module(self, module):
        names = STAND_INS.get(module.__spec__.name, ())
        module.__spec__.loader_state = {
            'loader': self.loader,
            'lock': threading.RLock(),
            'running': False,
            'thread': self.thread,
            'stand_ins': {name: _stand_in(module, name) for name in names},
        }
        module.__class__ = _DeferredModule


class _DeferringFinder:
    def __init__(self, thread):
        self.thread = thread

    def find_spec(self, name, path=None, target=None):
        if name not in DEFERRED or threading.current_thread() is not self.thread:
            return None
        spec = oi_imports.spec_from_other_finders(self, name, path, target)
        if spec is None:
            return None
        # Python modules only: an extension module's create_module does its work.
        if not isinstance(spec.loader, _PYTHON_LOADERS) or spec.loader_state is not None:
            return spec
        spec.loader = _DeferringLoader(spec.loader, self.thread)
        return spec

    def invalidate_caches(self):
        pass


def start():
    """Defers the listed imports this thread makes from now until stop(finder)."""
    finder = _DeferringFinder(threading.current_thread())
    sys.meta_path.insert(0, finder)
    return finder


def stop(finder):
    try:
        sys.meta_path.remove(finder)
    except ValueError:
        pass
