"""The magics a Jupyter kernel (ipykernel) adds to IPython's, as far as they mean something here.

%store is IPython's own storemagic extension, which ipykernel loads at start; loaded here on first use
(its import is not paid by sessions that never store). %less and %more show a file's text and %man a
manual page in the cell, where a notebook's pager would show them. %autosave and %clear act on a
notebook front end that the app does not have: they say so instead of failing with "magic not found".
"""
from IPython.core.magic import Magics, line_magic, magics_class


@magics_class
class KernelMagics(Magics):

    @line_magic
    def store(self, line):
        # Loading the extension registers IPython's %store in place of this one.
        self.shell.extension_manager.load_extension('storemagic')
        return self.shell.run_line_magic('store', line)

    @line_magic
    def less(self, line):
        self._show_file('less', line)

    @line_magic
    def more(self, line):
        self._show_file('more', line)

    @line_magic
    def man(self, line):
        # MANPAGER is cat in every session: the page is printed, never waited on.
        self.shell.system('man ' + line)

    @line_magic
    def autosave(self, line):
        print('%autosave does nothing here: the app saves the conversation after every change.')

    @line_magic
    def clear(self, line):
        print('%clear does nothing here: the app keeps what each cell showed.')

    def _show_file(self, name, line):
        path = line.strip()
        if not path:
            print('%%%s: name a file to show' % name)
            return
        with open(self.shell.var_expand(path), encoding='utf-8', errors='replace') as f:
            print(f.read(), end='')
