"""matplotlib backend for the runner: Agg rendering; show() sends figures as cell outputs.

Loaded through `matplotlib.use('module://oi_mpl_backend')` (see oi_display.MatplotlibHook).
"""
from matplotlib.backend_bases import FigureManagerBase
from matplotlib.backends.backend_agg import FigureCanvasAgg

import oi_display


class FigureManager(FigureManagerBase):
    def show(self):
        # figure.show(): like a notebook, show it now; the figure stays open for more drawing.
        oi_display.show_figure(self.canvas.figure)


class FigureCanvas(FigureCanvasAgg):
    manager_class = FigureManager


def show(*args, **kwargs):
    """plt.show(): send the open figures and close them, so the next plot starts a new figure
    (as it would after closing a GUI window)."""
    oi_display.show_open_figures()


def draw_if_interactive():
    pass
