"""Rich outputs: MIME bundles for values, display(), HTML/Markdown/Image, matplotlib figures.

Objects describe themselves the way notebooks expect (_repr_html_, _repr_png_, _repr_mimebundle_…),
so pandas, PIL, sympy and friends render without this runner knowing them.
"""
import binascii
import io
import os
import sys

import oi_imports

_emit = None  # set by the runner: sends one Jupyter-shaped output on the side channel
_shown_figures = {}  # id(figure) -> figure, shown in the current cell and not changed since

_TEXT_LIMIT = 1_000_000
_BINARY_MIMES = frozenset({'image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'})
_REPR_METHODS = (
    ('text/html', '_repr_html_'),
    ('text/markdown', '_repr_markdown_'),
    ('image/svg+xml', '_repr_svg_'),
    ('image/png', '_repr_png_'),
    ('image/jpeg', '_repr_jpeg_'),
    ('text/latex', '_repr_latex_'),
    ('application/json', '_repr_json_'),
)


def set_emitter(emit):
    global _emit
    _emit = emit


def begin_cell():
    _shown_figures.clear()


class HTML:
    """HTML(source) displays as rendered HTML."""

    def __init__(self, data):
        self.data = str(data)

    def _repr_html_(self):
        return self.data

    def __repr__(self):
        return self.data


class Markdown:
    """Markdown(source) displays as rendered Markdown."""

    def __init__(self, data):
        self.data = str(data)

    def _repr_markdown_(self):
        return self.data

    def __repr__(self):
        return self.data


_MAGIC = (
    (b'\x89PNG\r\n\x1a\n', 'image/png'),
    (b'\xff\xd8\xff', 'image/jpeg'),
    (b'GIF87a', 'image/gif'),
    (b'GIF89a', 'image/gif'),
)


def _sniff_image(data):
    for magic, mime in _MAGIC:
        if data.startswith(magic):
            return mime
    if data[:4] == b'RIFF' and data[8:12] == b'WEBP':
        return 'image/webp'
    if b'<svg' in data[:1024]:
        return 'image/svg+xml'
    raise ValueError('not a PNG, JPEG, GIF, WebP or SVG image')


class Image:
    """Image(path_or_bytes) displays an image file or image bytes; width/height scale it."""

    def __init__(self, data=None, filename=None, width=None, height=None):
        if filename is None and isinstance(data, (str, os.PathLike)):
            filename, data = data, None
        if filename is not None:
            with open(filename, 'rb') as f:
                data = f.read()
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError('Image() takes a file path or image bytes')
        self.data = bytes(data)
        self.mime = _sniff_image(self.data)
        self.width = width
        self.height = height

    def _repr_mimebundle_(self, include=None, exclude=None):
        if self.mime == 'image/svg+xml':
            payload = self.data.decode('utf-8', 'replace')
        else:
            payload = _b64(self.data)
        size = {k: v for k, v in (('width', self.width), ('height', self.height)) if v is not None}
        return {self.mime: payload}, ({self.mime: size} if size else {})

    def __repr__(self):
        return '<Image %s, %d bytes>' % (self.mime, len(self.data))


def display(*objs, raw=False, metadata=None):
    """Show each object as a rich output (HTML, image, Markdown…) under the cell.

    display(obj) picks the richest form the object offers; display({'text/html': '…'}, raw=True)
    sends a MIME bundle as given.
    """
    for obj in objs:
        if raw:
            data, meta = dict(obj), {}
        else:
            data, meta = bundle(obj, for_display=True)
        if metadata:
            meta = dict(meta, **metadata)
        _send({'output_type': 'display_data', 'data': data, 'metadata': meta})


def result_output(value, execution_count):
    data, meta = bundle(value)
    return {'output_type': 'execute_result', 'execution_count': execution_count,
            'data': data, 'metadata': meta}


def bundle(obj, for_display=False):
    """(data, metadata) for an object: every MIME type it can render, plus text/plain."""
    if for_display and isinstance(obj, str):
        return {'text/plain': _clip(obj)}, {}
    data, meta = {}, {}
    if not isinstance(obj, type):  # a class's _repr_html_ is an unbound function, not a view of it
        figure = _figure_png(obj)
        if figure is not None:
            data['image/png'] = figure
        else:
            _add_mimebundle(obj, data, meta)
            for mime, method in _REPR_METHODS:
                if mime not in data:
                    _add(mime, _call_repr(obj, method), data, meta)
            if 'image/png' not in data:
                _add('image/png', _pil_png(obj), data, meta)
    if 'text/plain' not in data:
        data['text/plain'] = _plain(obj)
    return data, meta


def _call_repr(obj, name, **kwargs):
    # Looked up on the type so proxies whose __getattr__ answers anything are not mistaken for views.
    method = getattr(type(obj), name, None)
    if not callable(method):
        return None
    try:
        return method(obj, **kwargs)
    except Exception:
        return None  # a broken optional view must not hide the others


def _add_mimebundle(obj, data, meta):
    found = _call_repr(obj, '_repr_mimebundle_', include=None, exclude=None)
    if isinstance(found, tuple) and len(found) == 2:
        found, found_meta = found
        if isinstance(found_meta, dict):
            meta.update(found_meta)
    if isinstance(found, dict):
        for mime, value in found.items():
            _add(mime, value, data, meta)


def _add(mime, value, data, meta):
    if isinstance(value, tuple) and len(value) == 2:
        value, value_meta = value
        if isinstance(value_meta, dict):
            meta[mime] = value_meta
    if value is None:
        return
    if mime in _BINARY_MIMES:
        if isinstance(value, (bytes, bytearray, memoryview)):
            value = _b64(value)
        elif not isinstance(value, str):
            return
    elif isinstance(value, (bytes, bytearray)):
        value = bytes(value).decode('utf-8', 'replace')
    elif mime.startswith('text/') or mime == 'image/svg+xml':
        value = str(value)
    data[mime] = value


def _b64(data):
    return binascii.b2a_base64(bytes(data), newline=False).decode('ascii')


def _plain(obj):
    try:
        text = repr(obj)
        if len(text) > 100 and len(text) < 100_000 and type(obj) in (dict, list, tuple, set):
            import pprint
            text = pprint.pformat(obj, width=100, sort_dicts=False)
    except Exception as e:  # a broken __repr__ should not fail the cell that produced the value
        text = '<%s object; repr() failed: %s: %s>' % (type(obj).__name__, type(e).__name__, e)
    return _clip(text)


def _clip(text):
    if len(text) <= _TEXT_LIMIT:
        return text
    return text[:_TEXT_LIMIT] + '\n… (%d more characters)' % (len(text) - _TEXT_LIMIT)


def _pil_png(obj):
    pil = sys.modules.get('PIL.Image')
    if pil is None or not isinstance(obj, pil.Image):
        return None
    buf = io.BytesIO()
    try:
        obj.save(buf, format='PNG')
    except (OSError, ValueError):
        buf = io.BytesIO()
        obj.convert('RGBA').save(buf, format='PNG')  # e.g. CMYK has no PNG form
    return buf.getvalue()


def _figure_png(obj):
    figure_module = sys.modules.get('matplotlib.figure')
    if figure_module is None or not isinstance(obj, figure_module.Figure):
        return None
    return _render_figure(obj)


def _render_figure(figure):
    buf = io.BytesIO()
    figure.savefig(buf, format='png', bbox_inches='tight')
    # savefig leaves the figure marked stale; clear it so a later change is what marks it again.
    figure.stale = False
    _shown_figures[id(figure)] = figure
    return _b64(buf.getvalue())


def figure_png(figure):
    """A matplotlib figure as base64 PNG, remembered as shown in this cell (IPython's formatter)."""
    return _render_figure(figure)


def show_figure(figure):
    _send({'output_type': 'display_data', 'data': {'image/png': _render_figure(figure),
                                                   'text/plain': repr(figure)}, 'metadata': {}})


def show_open_figures():
    """Send every open pyplot figure as a PNG output and close it (what a notebook shows)."""
    pyplot = sys.modules.get('matplotlib.pyplot')
    if pyplot is None:
        return
    try:
        for number in pyplot.get_fignums():
            figure = pyplot.figure(number)
            if id(figure) in _shown_figures and not figure.stale:
                continue  # displayed already in this cell and unchanged since
            show_figure(figure)
    finally:
        pyplot.close('all')


def _send(output):
    if _emit is None:
        raise RuntimeError('display() works only inside the Open Interpreter runner')
    _emit(output)


# --- matplotlib: our backend makes plt.show() emit figures instead of warning or blocking -----

_BACKEND = 'oi_mpl_backend'


class _LoaderThenConfigure:
    """Runs matplotlib's own loader, then points it at our backend."""

    def __init__(self, loader):
        self._loader = loader

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        self._loader.exec_module(module)
        _configure_matplotlib(module)

    def __getattr__(self, name):
        return getattr(self._loader, name)


class MatplotlibHook:
    """A meta-path finder: serves our backend module and configures matplotlib on import.

    MPLBACKEND stays "Agg" in the environment, so subprocesses that import matplotlib get a
    backend they can load; only this process switches to ours.
    """

    def find_spec(self, name, path=None, target=None):
        if name == _BACKEND:
            return oi_imports.runner_spec(name)
        if name != 'matplotlib':
            return None
        spec = oi_imports.spec_from_other_finders(self, name, path, target)
        if spec is not None and spec.loader is not None and hasattr(spec.loader, 'exec_module'):
            spec.loader = _LoaderThenConfigure(spec.loader)
        return spec


def _configure_matplotlib(matplotlib):
    if os.environ.get('MPLBACKEND') != 'Agg':
        return  # the user chose a backend themselves
    try:
        import warnings
        warnings.filterwarnings('ignore', message='Matplotlib is currently using agg')
        matplotlib.use('module://' + _BACKEND)
    except Exception:
        pass  # never break the user's import; Agg still works and figures are still captured


# --- help(): plain text in the cell, as in a Jupyter kernel ------------------------------------------

class _PlainHelp:
    """builtins.help: pydoc's help with its pager writing plain text. pydoc sees the cell's terminal
    and would page with bold overstrike (f^Hfo^Ho…), which the terminal passes on into the outputs
    and exports; a Jupyter kernel's stdout is not a terminal, so it writes plain text there."""

    def __repr__(self):
        return 'Type help() for interactive help, or help(object) for help about object.'

    def __call__(self, *args, **kwds):
        import pydoc
        pydoc.pager = _plain_pager
        return pydoc.help(*args, **kwds)


def _plain_pager(text, title=''):
    import pydoc
    sys.stdout.write(pydoc.plain(text))


def install_plain_help():
    import builtins
    builtins.help = _PlainHelp()
