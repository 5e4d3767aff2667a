"""`files`: small file helpers whose relative paths mean "in the conversation's workspace".

They return plain data (str, bytes, lists, dicts) and let the operating system's own exceptions
through (FileNotFoundError, NotADirectoryError, PermissionError…), which already name the path.
"""
import errno
import json
import os
import re

# Folders that recursive listing and search step over: tool caches and installed packages dwarf
# a workspace's own files. Pass such a folder as `path` to look inside it anyway.
SKIP_DIRS = frozenset({
    '.git', '.hg', '.svn', 'node_modules', '.venv', 'venv', '__pycache__', '.mypy_cache',
    '.pytest_cache', '.tox', '.ipynb_checkpoints',
})
_SEARCH_MAX_FILE = 20 * 1024 * 1024
_SEARCH_MAX_LINE = 500


def glob_regex(pattern):
    """A compiled regex for a glob: * and ? stay within a path segment, ** crosses segments,
    [abc] and {a,b} as in shells."""
    return re.compile('^' + _glob_body(pattern) + '$', re.S)


def _glob_body(pattern):
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if pattern.startswith('**/', i):
            out.append('(?:.*/)?')
            i += 3
            continue
        if pattern.startswith('**', i):
            out.append('.*')
            i += 2
            continue
        if c == '*':
            out.append('[^/]*')
        elif c == '?':
            out.append('[^/]')
        elif c == '[' and pattern.find(']', i + 2) != -1:
            end = pattern.find(']', i + 2)
            body = pattern[i + 1:end]
            negate = body[:1] in ('!', '^')
            body = body[1:] if negate else body
            out.append('[' + ('^' if negate else '') + body.replace('\\', '\\\\') + ']')
            i = end
        elif c == '{' and pattern.find('}', i) != -1:
            end = pattern.find('}', i)
            alternatives = pattern[i + 1:end].split(',')
            out.append('(?:' + '|'.join(_glob_body(a) for a in alternatives) + ')')
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return ''.join(out)


class Files:
    """File helpers; relative paths resolve against the workspace.

    files.read(path, binary=False)          -> str (or bytes)
    files.write(path, data, append=False)   -> absolute path written (dict/list data is saved as JSON)
    files.list(path='.', pattern=None)      -> sorted names, folders end with '/'
    files.delete(path, recursive=False)     -> None
    files.search(text, path='.', pattern=None, ignore_case=False) -> [{'path', 'line', 'text'}]
    files.exists(path)                      -> bool
    """

    def __init__(self, workspace):
        self.workspace = os.path.abspath(workspace)

    def __repr__(self):
        return '<files: read, write, list, delete, search, exists; relative paths are in %s>' % (
            self.workspace)

    def path(self, path='.'):
        """The absolute path a helper would use for `path`."""
        path = os.path.expanduser(os.fspath(path))
        return os.path.normpath(os.path.join(self.workspace, path))

    def read(self, path, binary=False, encoding='utf-8'):
        full = self.path(path)
        with open(full, 'rb') as f:
            data = f.read()
        if binary:
            return data
        try:
            return data.decode(encoding)
        except UnicodeDecodeError as e:
            raise ValueError('%s is not %s text (bad byte at offset %d); use files.read(path, '
                             'binary=True) for its bytes' % (full, encoding, e.start)) from None

    def write(self, path, data, append=False, encoding='utf-8'):
        full = self.path(path)
        if isinstance(data, (dict, list)):
            data = json.dumps(data, indent=2, ensure_ascii=False, default=str) + '\n'
        if isinstance(data, str):
            data = data.encode(encoding)
        elif isinstance(data, (bytearray, memoryview)):
            data = bytes(data)
        elif not isinstance(data, bytes):
            raise TypeError('files.write() takes str, bytes, dict or list data, not %s'
                            % type(data).__name__)
        parent = os.path.dirname(full)
        if parent:
            os.makedirs(parent, exist_ok=True)
        with open(full, 'ab' if append else 'wb') as f:
            f.write(data)
        return full

    def exists(self, path):
        return os.path.lexists(self.path(path))

    def list(self, path='.', pattern=None):
        root = self.path(path)
        if pattern is None or ('/' not in pattern and '**' not in pattern):
            match = glob_regex(pattern).match if pattern else None
            with os.scandir(root) as entries:
                names = [e.name + ('/' if e.is_dir() else '') for e in entries
                         if match is None or match(e.name)]
            return sorted(names)
        match = glob_regex(pattern).match
        found = []
        for relative, is_dir in _walk(root):
            if match(relative):
                found.append(relative + ('/' if is_dir else ''))
        return sorted(found)

    def delete(self, path, recursive=False):
        full = self.path(path)
        if os.path.isdir(full) and not os.path.islink(full):
            if recursive:
                import shutil  # imported here: it pulls in compression modules at startup
                shutil.rmtree(full)
            elif os.listdir(full):
                raise OSError(errno.ENOTEMPTY, 'Directory not empty (pass recursive=True to delete '
                              'it with its contents)', full)
            else:
                os.rmdir(full)
        else:
            os.unlink(full)

    def search(self, text, path='.', pattern=None, ignore_case=False, max_results=1000):
        if not text:
            raise ValueError('files.search() needs some text to look for')
        root = self.path(path)
        needle = text.lower() if ignore_case else text
        match = glob_regex(pattern).match if pattern else None
        if os.path.isdir(root):
            candidates = ((os.path.join(root, rel), rel) for rel, is_dir in _walk(root) if not is_dir)
        elif os.path.exists(root):
            candidates = iter([(root, os.path.basename(root))])
        else:
            raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), root)
        results = []
        for full, relative in candidates:
            if match is not None and not (match(relative) or match(os.path.basename(relative))):
                continue
            for number, line in _text_lines(full):
                haystack = line.lower() if ignore_case else line
                if needle in haystack:
                    results.append({'path': self._shown(full), 'line': number,
                                    'text': line[:_SEARCH_MAX_LINE]})
                    if len(results) >= max_results:
                        return results
        return results

    def _shown(self, full):
        relative = os.path.relpath(full, self.workspace)
        if relative == os.pardir or relative.startswith(os.pardir + os.sep):
            return full
        return relative.replace(os.sep, '/')


def _walk(root):
    """(relative path with '/' separators, is_dir) for everything under root, skipping SKIP_DIRS."""
    for folder, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        base = os.path.relpath(folder, root)
        prefix = '' if base == '.' else base.replace(os.sep, '/') + '/'
        for d in dirs:
            yield prefix + d, True
        for name in sorted(names):
            yield prefix + name, False


def _text_lines(full):
    try:
        if os.path.getsize(full) > _SEARCH_MAX_FILE:
            return
        with open(full, 'rb') as f:
            data = f.read()
    except OSError:
        return  # unreadable or vanished files are skipped, as grep -r does
    if b'\0' in data[:8192]:
        return  # binary
    for number, line in enumerate(data.decode('utf-8', 'replace').splitlines(), 1):
        yield number, line
