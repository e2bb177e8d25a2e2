"""Chinese text in figures without boxes (tofu).

matplotlib's default DejaVu Sans has no CJK glyphs. Every plot function
draws inside :func:`cjk_rc`, which puts a CJK font *behind* DejaVu Sans in
the family list, so Latin text keeps its look and each Chinese glyph falls
back to the CJK font. The font is looked up once, in this order:

1. Noto Sans CJK SC shipped by the ``mplfonts`` package (a dependency, so a
   plain ``pip install`` renders Chinese);
2. a CJK font installed on the system (Debian ``fonts-noto-cjk``,
   ``fonts-wqy-microhei``; macOS/Windows fonts);
3. none: a warning says how to get one, and the figure is still drawn.
"""

from __future__ import annotations

import importlib.util
import warnings
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import matplotlib as mpl
from matplotlib import font_manager

#: font files shipped by PyPI packages: (package, file inside it)
PACKAGED_FONTS = (("mplfonts", "fonts/NotoSansCJKsc-Regular.otf"),)
#: system font families that cover simplified Chinese, best first
SYSTEM_FAMILIES = ("Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "WenQuanYi Micro Hei",
                   "WenQuanYi Zen Hei", "Microsoft YaHei", "PingFang SC", "SimHei",
                   "Hiragino Sans GB", "Arial Unicode MS")


def _packaged_font_files():
    for package, relative in PACKAGED_FONTS:
        spec = importlib.util.find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            continue
        path = Path(next(iter(spec.submodule_search_locations))) / relative
        if path.is_file():
            yield path


@cache
def cjk_font_name():
    """The family name of a font with Chinese glyphs, or None if there is none.

    Examples
    --------
    The font the ``mplfonts`` dependency ships, found before any system font:

    >>> from hyperplane.plot import cjk_font_name
    >>> cjk_font_name()
    'Noto Sans CJK SC'
    """
    for path in _packaged_font_files():
        font_manager.fontManager.addfont(str(path))
        return font_manager.FontProperties(fname=str(path)).get_name()
    installed = {entry.name for entry in font_manager.fontManager.ttflist}
    for family in SYSTEM_FAMILIES:
        if family in installed:
            return family
    warnings.warn("no font with Chinese glyphs found: Chinese labels will show as boxes; "
                  "`pip install mplfonts` or install Debian's fonts-noto-cjk", stacklevel=3)
    return None


def _families():
    family = cjk_font_name()
    if family is None:
        return None
    return [font_manager.FontProperties().get_name(), family]  # Latin font first


def apply_cjk_font(figure):
    """Let every text already in ``figure`` fall back to the CJK font.

    Texts that exist before a plot function runs (the title and axis labels
    of an Axes the caller created) keep the font they were created with;
    the plot functions call this at the end so that Chinese set into them
    renders too. Returns ``figure``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from hyperplane.plot import apply_cjk_font
    >>> figure, ax = plt.subplots()
    >>> title = ax.set_title("西瓜数据集 3.0α")
    >>> title.get_fontfamily()
    ['sans-serif']
    >>> apply_cjk_font(figure) is figure
    True
    >>> title.get_fontfamily()
    ['DejaVu Sans', 'Noto Sans CJK SC']
    >>> plt.close(figure)
    """
    families = _families()
    if families is not None:
        from matplotlib.text import Text

        for text in figure.findobj(Text):
            text.set_fontfamily(families)
    return figure


@contextmanager
def cjk_rc():
    """``rc_context`` in which text falls back to the CJK font for Chinese glyphs.

    Examples
    --------
    The CJK font comes after the Latin one, and only inside the block:

    >>> import matplotlib as mpl
    >>> from hyperplane.plot import cjk_rc
    >>> before = mpl.rcParams["font.family"]
    >>> with cjk_rc():
    ...     inside = mpl.rcParams["font.family"]
    >>> inside
    ['DejaVu Sans', 'Noto Sans CJK SC']
    >>> mpl.rcParams["font.family"] == before
    True
    """
    families = _families()
    if families is None:
        yield
        return
    # concrete names, not the "sans-serif" alias: texts keep them after the context
    # ends, so the figure can be saved outside it
    with mpl.rc_context({"font.family": families}):
        yield
