"""The exported files as the readers people import with show them."""

from pylatexenc.latex2text import LatexNodes2Text
from pylatexenc.latex2text import MacroTextSpec
from pylatexenc.latex2text import get_default_latex_context_db

# LaTeX's commands for the characters the export writes so (a brace would end a field): pylatexenc
# lacks the braces' and prints `\textasciicircum` as a modifier letter, not the ASCII one LaTeX prints.
LATEX = get_default_latex_context_db().filter_context(keep_categories=None)
LATEX.add_context_category(
    "bibtex-export",
    prepend=True,
    macros=[
        MacroTextSpec("textbraceleft", "{"),
        MacroTextSpec("textbraceright", "}"),
        MacroTextSpec("textasciicircum", "^"),
    ],
)


def latex_text(value: str) -> str:
    """A BibTeX field's value as the text it prints (what a reference manager shows)."""
    return LatexNodes2Text(latex_context=LATEX).latex_to_text(value)
