"""Notebook magics for a session whose Python has no IPython: the documented subset.

  !cmd, x = !cmd          a shell command on the cell's terminal ($name and {expr} expanded)
  %pip ARGS               pip of this Python
  %cd [DIR], %cd -        change the working directory (prints it)
  %env, %env VAR, %env VAR=value, %env VAR value
  %matplotlib [ANY]       no effect: figures are shown anyway
  %time STATEMENT         run it and print CPU and wall times
  %%time                  the same for the whole cell
  %%bash, %%sh, %%script PROGRAM [ARGS], %%perl, %%ruby, %%python3…
                          the cell's text on the program's stdin (IPython's %%script semantics)
  %%writefile [-a] FILE   write (or append) the cell's text to FILE

Anything else that IPython would run raises IPythonRequired, naming the magic and what to do, before
any of the cell runs. Cells that are plain Python are never touched: they are compiled as they are,
and only a cell that does not compile is read for magics.
"""
import os
import re
import shlex
import subprocess
import sys
import time

SUPPORTED = ('%pip, !cmd, %cd, %env, %%bash, %%sh, %%script (and %%perl, %%ruby…), %%writefile, '
             '%matplotlib (no effect here), %time and %%time')

# IPython's %%script shortcuts: each runs the program of its name.
_SCRIPT_MAGICS = {'bash': 'bash', 'sh': 'sh', 'perl': 'perl', 'ruby': 'ruby', 'python': 'python',
                  'python2': 'python2', 'python3': 'python3', 'pypy': 'pypy', 'zsh': 'zsh'}
_LINE_MAGICS = frozenset({'pip', 'cd', 'env', 'matplotlib', 'time'})


class IPythonRequired(Exception):
    """A magic only IPython runs; the message says which, and what can be done."""


class MagicUsageError(Exception):
    pass


def _needs_ipython(magic, failure=None):
    python = sys.executable or 'this Python'
    why = ('IPython failed to load in this session (%s)' % failure if failure
           else 'this session\'s Python (%s) cannot import IPython' % python)
    return IPythonRequired(
        '%s needs IPython, and %s. Without IPython the session runs %s. '
        'Install IPython for it (%s -m pip install ipython) or choose a Python that has it (Settings → Python).'
        % (magic, why, SUPPORTED, python))


class Magics:
    """Turns a cell with magics into Python calling back into this object, then runs those calls."""

    def __init__(self, namespace, run_cell, failure=None):
        self._ns = namespace
        self._failure = failure
        self._run_cell = run_cell  # runs a cell's code like the runner does; returns its last value
        self._previous_dir = None
        namespace['_oi_magics'] = self

    # --- transforming a cell -------------------------------------------------------------------

    def transform(self, code):
        """The cell as Python: unchanged when it compiles; else with its magics turned into calls."""
        try:
            compile(code, '<cell>', 'exec', 0x2000, dont_inherit=True)
            return code
        except (SyntaxError, ValueError):
            pass
        first, _, body = code.partition('\n')
        match = re.match(r'%%([A-Za-z_][\w]*)(.*)$', first.strip())
        if match:
            return self._cell_magic(match.group(1), match.group(2).strip(), body)
        return ''.join(self._line(line) for line in _logical_lines(code))

    def _cell_magic(self, name, args, body):
        if name in _SCRIPT_MAGICS or name == 'script':
            program = [_SCRIPT_MAGICS[name]] + shlex.split(args) if name != 'script' else shlex.split(args)
            if not program:
                raise MagicUsageError('%%script needs a program to run: %%script bash')
            return '_oi_magics.script(%r, %r)\n' % (program, body)
        if name == 'writefile':
            return '_oi_magics.writefile(%r, %r)\n' % (args, body)
        if name == 'time':
            return '_oi_magics.time_cell(%r)\n' % self.transform(body)
        raise _needs_ipython('%%' + name, self._failure)

    def _line(self, line):
        stripped = line.lstrip()
        indent = line[:len(line) - len(stripped)]
        ending = '\n' if line.endswith('\n') else ''
        text = stripped.rstrip('\n')
        if text.startswith('!') and not text.startswith('!='):
            return '%s_oi_magics.system(%r)%s' % (indent, text[1:], ending)
        if text.startswith('%') and not text.startswith('%%'):
            name, _, args = text[1:].partition(' ')
            if name not in _LINE_MAGICS:
                raise _needs_ipython('%' + name, self._failure)
            return '%s_oi_magics.%s(%r)%s' % (indent, 'time_statement' if name == 'time' else name, args.strip(), ending)
        assigned = re.match(r'([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*)\s*=\s*!(.*)$', text)
        if assigned:
            return '%s%s = _oi_magics.getoutput(%r)%s' % (indent, assigned.group(1), assigned.group(2), ending)
        return line

    # --- what the calls do ---------------------------------------------------------------------

    def _expand(self, command):
        """$name, ${name} and {expression} from the namespace, as IPython expands them ($$ is $)."""
        def value(expression):
            try:
                return str(eval(expression, self._ns))
            except Exception:
                return None

        def braces(match):
            found = value(match.group(1))
            return match.group(0) if found is None else found

        def dollar(match):
            if match.group(0) == '$$':
                return '$'
            found = value(match.group(1) or match.group(2))
            return match.group(0) if found is None else found

        command = re.sub(r'(?<!\{)\{([^{}]+)\}(?!\})', braces, command)
        return re.sub(r'\$\$|\$\{(\w+)\}|\$(\w+)', dollar, command)

    def system(self, command):
        _flush()
        code = subprocess.call(self._expand(command), shell=True, executable=os.environ.get('SHELL') or None)
        self._ns['_exit_code'] = code

    def getoutput(self, command):
        _flush()
        done = subprocess.run(self._expand(command), shell=True, executable=os.environ.get('SHELL') or None,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        return done.stdout.decode('utf-8', 'replace').splitlines()

    def pip(self, args):
        _flush()
        subprocess.call([sys.executable, '-m', 'pip'] + shlex.split(args))
        print('Note: you may need to restart the session to use updated packages.')

    def cd(self, args):
        target = args.strip().strip('"\'') if args.strip() else os.path.expanduser('~')
        if target == '-':
            if self._previous_dir is None:
                raise MagicUsageError('%cd -: there is no previous directory yet')
            target = self._previous_dir
        target = os.path.expanduser(self._expand(target))
        before = os.getcwd()
        os.chdir(target)
        self._previous_dir = before
        print(os.getcwd())

    def env(self, args):
        if not args:
            return dict(os.environ)
        if '=' in args.split(' ', 1)[0] or (' ' not in args and '=' in args):
            name, _, value = args.partition('=')
        elif ' ' in args:
            name, _, value = args.partition(' ')
        else:
            return os.environ.get(args)
        name, value = name.strip(), self._expand(value.strip())
        os.environ[name] = value
        print('env: %s=%s' % (name, value))
        return None

    def matplotlib(self, _args):
        return None  # the runner shows figures inline whatever the backend says

    def time_statement(self, statement):
        started_cpu, started = time.process_time(), time.perf_counter()
        try:
            try:
                code = compile(statement, '<timed>', 'eval')
            except SyntaxError:
                exec(compile(statement, '<timed>', 'exec'), self._ns)
                return None
            return eval(code, self._ns)
        finally:
            _print_times(started_cpu, started)

    def time_cell(self, code):
        started_cpu, started = time.process_time(), time.perf_counter()
        try:
            return self._run_cell(code)
        finally:
            _print_times(started_cpu, started)

    def script(self, program, body):
        _flush()
        try:
            done = subprocess.run(program, input=body.encode('utf-8'))
        except FileNotFoundError:
            # What IPython's %%script does: says so on stdout, and the cell (and a Run All) goes on.
            print("Couldn't find program: %r" % program[0])
            return
        if done.returncode != 0:
            raise subprocess.CalledProcessError(done.returncode, program)

    def writefile(self, args, body):
        parts = shlex.split(args)
        append = '-a' in parts or '--append' in parts
        names = [p for p in parts if p not in ('-a', '--append')]
        if len(names) != 1:
            raise MagicUsageError('%%writefile needs one file name: %%writefile [-a] FILE')
        path = os.path.expanduser(names[0])
        existed = os.path.exists(path)
        with open(path, 'a' if append else 'w', encoding='utf-8') as f:
            f.write(body if body.endswith('\n') or not body else body + '\n')
        print('%s %s' % ('Appending to' if append else 'Overwriting' if existed else 'Writing', names[0]))


def _print_times(started_cpu, started):
    cpu = time.process_time() - started_cpu
    wall = time.perf_counter() - started
    print('CPU times: total: %s\nWall time: %s' % (_format_time(cpu), _format_time(wall)))


def _format_time(seconds):
    for unit, scale in (('s', 1), ('ms', 1e3), ('µs', 1e6)):
        if seconds * scale >= 1:
            return '%.3g %s' % (seconds * scale, unit)
    return '%.3g ns' % (seconds * 1e9)


def _flush():
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def _logical_lines(code):
    """The cell's lines, with lines that continue a bracket or a string joined to where they began,
    so that a '%' or '!' inside a string or a call is never read as a magic."""
    import io
    import tokenize
    lines = code.splitlines(True)
    starts = set()
    try:
        depth = 0
        line_start = True
        for token in tokenize.generate_tokens(io.StringIO(code).readline):
            if line_start and depth == 0:
                starts.add(token.start[0])
            if token.type == tokenize.OP and token.string in '([{':
                depth += 1
            elif token.type == tokenize.OP and token.string in ')]}':
                depth = max(0, depth - 1)
            line_start = token.type in (tokenize.NEWLINE, tokenize.NL) and depth == 0
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass
    if not starts:
        return lines
    out, current = [], ''
    for number, line in enumerate(lines, 1):
        if number in starts and current:
            out.append(current)
            current = ''
        current += line
    if current:
        out.append(current)
    return out
