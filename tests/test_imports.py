"""The house plan's import rules, read from the source (ast), not from an import.

- no circle between meeple's modules (a circle is what made imports hide inside functions);
- no module-level import of another module's private name (a helper another module needs
  is public: named without an underscore, with a docstring);
- no import inside a function, except the short ALLOWED list below, each with its reason
  (an optional extra, or a measured import cost).

`python tests/test_imports.py` prints the figures (modules, circles, private imports,
imports inside functions) for the closing note of a restructuring.
"""

from __future__ import annotations

import ast
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = {"meeple.rules": ROOT / "rules", "meeple.widgets": ROOT / "widgets", "meeple.course": ROOT / "lessons"}

# Imports inside a function that stay there: (importing module, imported module) -> why.
ALLOWED = {
    # measured import cost: `import meeple.rules` loads the standard library alone (tests/test_project.py)
    ("meeple.rules.sim.results", "pandas"): "pandas costs about 0.5 s; only a table needs it",
    ("meeple.rules.sim.results", "numpy"): "a table's typed columns; numpy is loaded with pandas there",
    ("meeple.rules.sim.runner", "tqdm.auto"): "tqdm costs about 0.1 s; only a progress bar needs it",
    ("meeple.rules.cli.game", "tqdm.auto"): "tqdm costs about 0.1 s; only a terminal's move counter needs it",
    ("meeple.rules.chance", "numpy"): "numpy costs about 0.1 s; only a numpy Generator asks for it",
    # optional extras
    ("meeple.rules", "meeple.rules.openspiel"): "the openspiel extra, loaded on an ismcts bot's first move",
    ("meeple.rules.openspiel", "open_spiel.python.algorithms"): "the openspiel extra's search bots",
    ("meeple.rules.cli", "meeple.course.cli"): "the course's commands (lessons, answers, scrub): meeple.rules "
                                                "never imports the course at module level",
    ("meeple.course.cli", "meeple.course.exercises"): "the four games, exact and workbench: only `meeple answers` "
                                                      "and `meeple site --roster` read the exercises",
    ("meeple.course.cli", "meeple.course.site.build"): "the site builder imports altair (1-5 s): only `meeple site` "
                                                       "builds",
    ("meeple.course.cli", "meeple.course.grading"): "the gradebook re-checks with the exercises (the four games, "
                                                    "exact, workbench); only `meeple grade` does",
    ("meeple.course.exercises.graded", "js"): "Pyodide's own module: only the site's browser Python has it",
    ("meeple.course.exercises.graded", "pyodide.ffi"): "Pyodide's own module: only the site's browser Python has it",
    ("meeple.rules.cli.workbench", "meeple.widgets.report"): "meeple.widgets needs Jupyter's packages and "
                                                             "altair; only `compare --report` draws",
    ("meeple.widgets.vega", "altair.utils._importers"): "altair costs 1-5 s (python -X importtime, loaded "
                                                        "machine); only a vega-embed bundle needs its version",
}

# widgets/ is under the same rule as rules/ (issue 20): top-level imports, the ALLOWED list above.
# The lessons' checkers import the engine at module top: `import meeple.widgets` stays cheap
# (its widgets load on first use, PEP 562), and `import meeple.course.exercises` loads the
# four games, exact and workbench, which a checked answer needs anyway (figures: issue 20's note).


@dataclass
class Import:
    source: str  # the importing module
    target: str  # the imported module (for `from m import name`: m, or m.name when that is a module)
    names: tuple[str, ...]  # names taken from the target (empty for `import m`)
    line: int
    inside: bool  # inside a function body


@dataclass
class Graph:
    modules: dict[str, Path] = field(default_factory=dict)
    imports: list[Import] = field(default_factory=list)

    def internal(self, name: str) -> bool:
        return name in self.modules

    def edges(self) -> dict[str, set[str]]:
        out: dict[str, set[str]] = {m: set() for m in self.modules}
        for imp in self.imports:
            if self.internal(imp.target) and imp.target != imp.source:
                out[imp.source].add(imp.target)
        return out

    def circles(self) -> list[list[str]]:
        """Strongly connected components of more than one module (Tarjan), each sorted."""
        edges = self.edges()
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on: set[str] = set()
        out: list[list[str]] = []
        counter = [0]

        def visit(v: str) -> None:
            index[v] = low[v] = counter[0]
            counter[0] += 1
            stack.append(v)
            on.add(v)
            for w in sorted(edges[v]):
                if w not in index:
                    visit(w)
                    low[v] = min(low[v], low[w])
                elif w in on:
                    low[v] = min(low[v], index[w])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))

        sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
        for v in sorted(edges):
            if v not in index:
                visit(v)
        return sorted(out)

    def private(self) -> list[Import]:
        """Imports of another internal module's private name (`from .x import _y`)."""
        return [imp for imp in self.imports
                if self.internal(imp.target) and imp.target != imp.source
                and any(n.startswith("_") and not n.startswith("__") for n in imp.names)]

    def inside(self) -> list[Import]:
        return [imp for imp in self.imports if imp.inside]


def module_name(package: str, root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join([package, *parts])


def build(packages: dict[str, Path] = PACKAGES) -> Graph:
    graph = Graph()
    for package, root in packages.items():
        for path in sorted(root.rglob("*.py")):
            if any(part.startswith((".", "_build")) for part in path.relative_to(root).parts[:-1]):
                continue
            graph.modules[module_name(package, root, path)] = path
    for name, path in graph.modules.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        _collect(graph, name, is_package, tree, inside=False)
    return graph


def _collect(graph: Graph, name: str, is_package: bool, node: ast.AST, inside: bool) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Import):
            for alias in child.names:
                graph.imports.append(Import(name, alias.name, (), child.lineno, inside))
        elif isinstance(child, ast.ImportFrom):
            if child.level:
                base = name if is_package else name.rpartition(".")[0]
                for _ in range(child.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{child.module}" if child.module else base
            else:
                target = child.module or ""
            plain = []
            for alias in child.names:
                sub = f"{target}.{alias.name}"
                if sub in graph.modules:  # `from . import bots`: the module bots
                    graph.imports.append(Import(name, sub, (), child.lineno, inside))
                else:
                    plain.append(alias.name)
            if plain or not child.names:
                graph.imports.append(Import(name, target, tuple(plain), child.lineno, inside))
        else:
            _collect(graph, name, is_package, child,
                     inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))


def figures(graph: Graph, prefix: str = "") -> dict[str, int]:
    def ours(m: str) -> bool:
        return m.startswith(prefix)

    return {
        "modules": sum(1 for m in graph.modules if ours(m)),
        "circles": sum(1 for c in graph.circles() if any(ours(m) for m in c)),
        "modules in circles": sum(len(c) for c in graph.circles() if any(ours(m) for m in c)),
        "private names imported": sum(len([n for n in imp.names if n.startswith("_")])
                                      for imp in graph.private() if ours(imp.source)),
        "imports inside functions": sum(1 for imp in graph.inside() if ours(imp.source)),
        "internal imports inside functions": sum(1 for imp in graph.inside()
                                                 if ours(imp.source) and graph.internal(imp.target)),
    }


# --- the tests -------------------------------------------------------------------

GRAPH = build()


def _in(prefix: str, module: str) -> bool:
    return module == prefix or module.startswith(prefix + ".")


def test_the_graph_sees_every_module():
    # a path mistake would find nothing and pass everything below
    assert "meeple.rules" in GRAPH.modules and "meeple.rules.core" in GRAPH.modules
    assert "meeple.widgets.explorer" in GRAPH.modules and "meeple.course.site.build" in GRAPH.modules
    assert any(imp.target == "meeple.rules.core" for imp in GRAPH.imports)


def test_no_circle_in_rules():
    circles = [c for c in GRAPH.circles() if any(_in("meeple.rules", m) for m in c)]
    assert circles == [], f"import circles: {circles}"


def test_no_circle_in_widgets():
    circles = [c for c in GRAPH.circles() if any(_in("meeple.widgets", m) for m in c)]
    assert circles == [], f"import circles: {circles}"


def test_no_circle_in_the_course():
    circles = [c for c in GRAPH.circles() if any(_in("meeple.course", m) for m in c)]
    assert circles == [], f"import circles: {circles}"


def test_no_private_name_crosses_a_module_line_at_module_level():
    bad = [f"{imp.source}:{imp.line} imports {name} from {imp.target}"
           for imp in GRAPH.private() if not imp.inside
           for name in imp.names if name.startswith("_")]
    assert bad == []


@pytest.mark.parametrize("package", ["meeple.rules", "meeple.widgets", "meeple.course"])
def test_no_import_inside_a_function(package):
    bad = [f"{imp.source}:{imp.line} imports {imp.target}" for imp in GRAPH.inside()
           if _in(package, imp.source) and (imp.source, imp.target) not in ALLOWED]
    assert bad == []


def test_the_allow_list_is_short_and_each_entry_is_used():
    # 15: issue 37's gradebook, issue 34's site builder, the site's WebCrypto (Pyodide's js), issue 35's typed columns
    assert len(ALLOWED) <= 15
    used = {(imp.source, imp.target) for imp in GRAPH.inside()}
    assert set(ALLOWED) <= used, f"allowed but no longer there: {sorted(set(ALLOWED) - used)}"


def test_the_checks_catch_what_they_say(tmp_path):
    """A circle, a private import and an import in a function, in a little package of our own."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .b import _hidden\n")
    (pkg / "b.py").write_text("def f():\n    from . import a\n_hidden = 1\n")
    g = build({"pkg": pkg})
    assert g.circles() == [["pkg.a", "pkg.b"]]
    assert [(i.source, i.names) for i in g.private()] == [("pkg.a", ("_hidden",))]
    assert [(i.source, i.target) for i in g.inside()] == [("pkg.b", "pkg.a")]


if __name__ == "__main__":
    for prefix in ("meeple.rules", "meeple.widgets", "meeple.course"):
        print(prefix, figures(GRAPH, prefix))
    for comp in GRAPH.circles():
        print("circle:", ", ".join(comp))
