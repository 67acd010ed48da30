"""Student copies of notebooks: `scrub_notebook` gives a notebook's JSON without its
cells tagged "solution" (outputs cleared), checking first that it is a notebook.

`meeple scrub`, `meeple lessons --student` and the site builder (lessons/site/build.py,
`make site SOLUTIONS=no`) all use it, so a student copy is made one way everywhere.
"""

from __future__ import annotations

import json

__all__ = ["NotebookError", "scrub_notebook"]


class NotebookError(ValueError):
    """A file that is not a notebook, or a course folder that is not as `meeple lessons`
    left it: one line naming it and what is wrong."""


def scrub_notebook(text: str, name: str = "notebook") -> tuple[str, int]:
    """A notebook's JSON with every cell tagged "solution" removed (and outputs cleared).

    Anything that is not an nbformat 4 notebook (JSON object, a list of cells,
    each an object with a cell_type and a source) is a NotebookError naming the
    first thing wrong; nothing is written for it.
    """
    try:
        nb = json.loads(text)
    except RecursionError:
        raise NotebookError(f"{name} is not a notebook: its JSON is nested too deeply") from None
    except ValueError as e:
        raise NotebookError(f"{name} is not a notebook: not JSON ({e})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookError(f"{name} is not a notebook: no JSON object with a 'cells' list")
    cells = nb["cells"]
    for i, c in enumerate(cells):
        problem = None
        if not isinstance(c, dict):
            problem = f"is {type(c).__name__}, not an object"
        elif not isinstance(c.get("cell_type"), str):
            problem = "has no 'cell_type' text"
        elif "source" not in c:
            problem = "has no 'source'"
        elif not (isinstance(c["source"], str) or isinstance(c["source"], list) and all(isinstance(s, str) for s in c["source"])):
            problem = "has a 'source' that is neither text nor a list of lines"
        elif not isinstance(c.get("metadata", {}), dict):
            problem = "has 'metadata' that is not an object"
        elif not isinstance(c.get("metadata", {}).get("tags", []), list):
            problem = "has 'tags' that are not a list"
        if problem:
            raise NotebookError(f"{name} is not a notebook: cell {i + 1} {problem}")
    kept = [c for c in cells if "solution" not in c.get("metadata", {}).get("tags", [])]
    for c in kept:
        if c["cell_type"] == "code":
            c["outputs"], c["execution_count"] = [], None
    nb["cells"] = kept
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n", len(cells) - len(kept)
