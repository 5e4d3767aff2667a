"""Import plumbing the runner's modules share: its own modules compile in memory and are found by
path; meta-path finders that wrap what the other finders would find."""
import importlib.machinery
import importlib.util
import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))


class InMemoryLoader(importlib.machinery.SourceFileLoader):
    def set_data(self, path, data, *, _mode=0o666):
        pass  # no __pycache__ beside the runner: the app bundle may be read-only or code-signed


def runner_spec(name):
    """The spec of one of the runner's own modules, from the runner's folder."""
    path = os.path.join(_HERE, name + '.py')
    return importlib.util.spec_from_file_location(name, path, loader=InMemoryLoader(name, path))


def runner_module(name):
    """One of the runner's own modules, from the runner's folder whatever sys.path says: the main
    thread takes that folder off sys.path early (oi_runner.main), and cells may change it."""
    module = sys.modules.get(name)
    if module is not None:
        return module
    spec = runner_spec(name)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[name]
        raise
    return module


def spec_from_other_finders(skip, name, path=None, target=None):
    """The spec the meta-path finders other than `skip` give for `name`, or None."""
    for finder in sys.meta_path:
        if finder is skip or not hasattr(finder, 'find_spec'):
            continue
        spec = finder.find_spec(name, path, target)
        if spec is not None:
            return spec
    return None
