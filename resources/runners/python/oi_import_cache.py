"""Packages installed while the session runs (pip in another process, `%pip`, `!pip`, the app's
automatic install) must be importable by the next import that asks for them.

The import system caches each folder's listing and refreshes it when the folder's modification time
changes; a change within the same tick of the file system's clock (a few milliseconds), or a folder
on sys.path that did not exist when first looked at, is missed until `importlib.invalidate_caches()`.
Calling that before every cell cost a warm cell a good part of its time in the runner (it visits
every folder the session has imported from). Instead, a finder at the end of sys.meta_path, reached
only when no other finder found the module, drops the caches and asks the other finders again: once
after each cell starts, and again after each program the cell starts (pip is one), so the only
imports that pay are those that would otherwise fail.
"""
import importlib
import sys

import oi_imports

# Audit events after which another program may have installed something.
_PROGRAMS = frozenset({'subprocess.Popen', 'os.system', 'os.exec', 'os.posix_spawn', 'os.spawn'})


class _RefreshOnMiss:
    def __init__(self):
        self.stale = True

    def find_spec(self, name, path=None, target=None):
        if not self.stale:
            return None
        self.stale = False
        importlib.invalidate_caches()
        return oi_imports.spec_from_other_finders(self, name, path, target)

    def invalidate_caches(self):
        pass


_finder = _RefreshOnMiss()


def install():
    sys.meta_path.append(_finder)
    if hasattr(sys, 'addaudithook'):
        sys.addaudithook(_audit)


def cell_started():
    """A cell begins: what happened since the last one (an install elsewhere) may be new."""
    _finder.stale = True


def _audit(event, _args):
    if event in _PROGRAMS:
        _finder.stale = True
