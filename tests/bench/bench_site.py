"""How heavy and how fast the live course site is (issue 12), measured in Chromium.

    .venv/bin/python tests/bench/bench_site.py [--site lessons/_build/html] [--update BENCHMARKS.md]
    .venv/bin/python tests/bench/bench_site.py --games-only --site DIR --update BENCHMARKS.md   # issue 21's line

`--games-only` measures only games/s in the worker beside CPython (random and heuristic
bots, alternating rounds) and Play live's cold start beside a fresh CPython's, each read by
the clocks inside the Python that runs it (live.timed_simulate_point, the worker's
performance.now()), on any built site with a Stepper page (one lesson is enough:
`python -m meeple.course.site.build --lessons 01_first_interval --out DIR`), into <!-- site-games:start/end -->.

Serves a built site (default: lessons/_build/html, from `make site`) on loopback and
measures, with a fresh browser context (empty cache) for each figure:
- per page, bytes and requests until every widget is drawn (and the fonts are in, no
  Python): cold (empty cache) and warm (the page again in a new tab of the same visit), and
  seconds to every widget drawn, cold; the bytes "Play live" adds (Pyodide and the wheel);
- time from the "Play live" click to a playable Stepper (data-meeple-live=live),
  cold (empty cache) and warm (the next page of the same visit);
- games/s of `meeple.course.site.runtime.live.simulate_point` (heuristic bots, base rules) in
  the browser's worker and in CPython, one process, for each game.
Not a test: the figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
GAMES = {"bucket-brigade": 300, "duck-duck-bruce": 300, "piggyback-brigade": 300, "bucket-king": 100}


def chromium() -> str:
    try:
        import machine  # tests/machine.py: where the tests find a Chromium

        found = machine.find_chromium()
        if found:
            return found
    except Exception:  # noqa: BLE001 - fall back to Debian's path
        pass
    return "/usr/bin/chromium"


def serve(html: Path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "--directory", str(html)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    for _ in range(100):
        try:
            urllib.request.urlopen(url + "/index.html", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.1)
    raise SystemExit("bench_site: http.server did not start")


class Counter:
    """Bytes of every response a context received (the worker's too): body plus headers."""

    def __init__(self, context):
        self.requests: list = []
        context.on("requestfinished", lambda r: self.requests.append(r))

    def total(self, start: int = 0) -> int:
        """Bytes of the requests from number `start` on (read while their page is open)."""
        out = 0
        for r in self.requests[start:]:
            try:
                sizes = r.sizes()
                out += sizes["responseBodySize"] + sizes["responseHeadersSize"]
            except Exception:  # noqa: BLE001 - a request the browser cancelled
                pass
        return out


DRAWN = """() => {
    const views = document.querySelectorAll("script[type='application/vnd.jupyter.widget-view+json']").length;
    const charts = [...document.querySelectorAll('.vega-embed')];
    return (views === 0 || document.documentElement.dataset.meepleWidgets === 'drawn')
        && charts.every(c => c.querySelector('svg, canvas'));
}"""


def _visit(page, url: str) -> float:
    """Load `url` in `page` until every widget is drawn and the fonts are in; seconds taken."""
    t0 = time.perf_counter()
    page.goto(url)
    page.wait_for_function(DRAWN, timeout=300_000)
    seconds = time.perf_counter() - t0
    page.evaluate("document.fonts.ready.then(() => true)")
    page.wait_for_load_state("networkidle")
    return seconds


def page_bytes(browser, url: str, pages: list[str]) -> list[dict]:
    """Per page: bytes and requests cold (a fresh context: empty cache) and warm (the same
    page again in that context), and seconds to every widget drawn, cold."""
    rows = []
    for name in pages:
        context = browser.new_context()
        count = Counter(context)
        page = context.new_page()
        drawn = _visit(page, f"{url}/{name}.html")
        cold, cold_n = count.total(), len(count.requests)
        page.close()
        page = context.new_page()  # a new tab of the same visit: the browser's cache, no reload flags
        _visit(page, f"{url}/{name}.html")
        rows.append({"page": name, "cold": cold, "requests": cold_n, "warm": count.total(cold_n),
                     "warm_requests": len(count.requests) - cold_n, "drawn": drawn})
        context.close()
    return rows


def start_live(page, count: Counter, url: str, lesson: str) -> tuple[float, int]:
    """Open `lesson`, press its first Play live and wait for the live Stepper:
    (seconds from the press, bytes fetched from the press)."""
    page.goto(f"{url}/{lesson}.html")
    page.locator(".meeple-play-live").first.wait_for(timeout=60_000)
    page.wait_for_load_state("networkidle")
    before = len(count.requests)
    t0 = time.perf_counter()
    page.locator(".meeple-play-live").first.click()
    page.wait_for_selector(".meeple-stepper[data-meeple-live=live]", timeout=300_000)
    return time.perf_counter() - t0, count.total(before)


def play_live(browser, url: str, lesson: str, other: str | None) -> dict:
    context = browser.new_context()
    count = Counter(context)
    page = context.new_page()
    cold, python_bytes = start_live(page, count, url, lesson)
    info = page.evaluate("globalThis.meepleLive.started")
    warm = warm_bytes = None
    if other:  # the next page of the visit: the same context, Pyodide from the browser's cache
        warm, warm_bytes = start_live(page, count, url, other)
    result = {"cold": cold, "warm": warm, "python_bytes": python_bytes, "warm_bytes": warm_bytes, "worker": info}
    result["browser_games"] = {}
    for game, n in GAMES.items():
        setup = _setup(game)
        t0 = time.perf_counter()
        page.evaluate("([s, v, n]) => globalThis.meepleLive.call('simulate_point', {setup: s, value: v, games: n})",
                      [json.dumps(setup), json.dumps(setup["values"][0]), n])
        result["browser_games"][game] = (n, time.perf_counter() - t0)
    context.close()
    return result


def _setup(game: str) -> dict:
    from meeple.rules import GAMES as MODULES

    mod = MODULES[game]
    cfg = mod.Config()
    # one "Explorer value": `players` at its default, i.e. the base rules
    return {"game": game, "config": cfg.to_dict(), "field": "players", "bots": ["heuristic"] * cfg.players, "seed": 1,
            "values": [cfg.players], "games": GAMES[game]}


def cpython_games() -> dict:
    from meeple.course.site.runtime import live

    out = {}
    for game, n in GAMES.items():
        setup = _setup(game)
        t0, c0 = time.perf_counter(), time.process_time()
        live.simulate_point(json.dumps(setup), json.dumps(setup["values"][0]), n)
        out[game] = (n, time.perf_counter() - t0, time.process_time() - c0)
    return out


# The first game of a cold start, in the worker and in a fresh CPython.
COLD_GAME = ("bucket-brigade", "heuristic")
# A fresh CPython does what the worker does to be ready, then plays that game. perf_counter is
# CLOCK_MONOTONIC, one clock for every process on Linux: the parent's reading before the launch
# and the child's first one give the interpreter's start; the child's first process_time is its CPU.
CPYTHON_COLD = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from meeple.course.site.runtime import live, transport  # noqa: F401 - the modules the worker imports
t1, c1 = time.perf_counter(), time.process_time()
live.simulate_point(*json.loads(sys.argv[1]))
t2, c2 = time.perf_counter(), time.process_time()
print(json.dumps({"t0": t0, "up_cpu": c0, "imported": [t1 - t0, c1 - c0], "game": [t2 - t1, c2 - c1]}))
"""


def _args(game: str, bots: str, n: int) -> list:
    setup = _setup(game)
    setup["bots"] = [bots] * len(setup["bots"])
    return [json.dumps(setup), json.dumps(setup["values"][0]), n]


def _in_worker(page, args: list) -> tuple[dict, float]:
    """live.timed_simulate_point in the page's worker: (its answer, seconds of the page's call there and back)."""
    t0 = time.perf_counter()
    got = page.evaluate("([s, v, n]) => globalThis.meepleLive.call('timed_simulate_point', {setup: s, value: v, games: n})",
                        args)
    return json.loads(got), time.perf_counter() - t0


def cold_starts(browser, url: str, lesson: str, rounds: int) -> tuple[list[dict], list[dict]]:
    """`rounds` Play-live cold starts (each a fresh context: empty cache), each beside a fresh CPython:
    seconds by the clocks inside each (the worker's performance.now(), the child's perf_counter)."""
    args = _args(*COLD_GAME, 1)
    worker, cpython = [], []
    for _ in range(rounds):
        context = browser.new_context()
        page = context.new_page()
        page.goto(f"{url}/{lesson}.html")
        page.locator(".meeple-play-live").first.click()
        page.wait_for_selector(".meeple-stepper[data-meeple-live=live]", timeout=300_000)
        info = page.evaluate("globalThis.meepleLive.started")
        game, _ = _in_worker(page, args)
        context.close()
        pyodide = info["ready_seconds"] - info["meeple_seconds"]  # from the worker's creation
        worker.append({"python": pyodide, "meeple": info["meeple_seconds"], "game": game["perf_counter"],
                       "total": info["ready_seconds"] + game["perf_counter"], "page": info["seconds"],
                       "version": info["version"]})
        before = time.perf_counter()
        done = subprocess.run([sys.executable, "-c", CPYTHON_COLD, json.dumps(args)], capture_output=True, text=True,
                              check=True)
        got = json.loads(done.stdout)
        up = got["t0"] - before
        cpython.append({"python": up, "python_cpu": got["up_cpu"], "meeple": got["imported"][0],
                        "meeple_cpu": got["imported"][1], "game": got["game"][0], "game_cpu": got["game"][1],
                        "total": up + got["imported"][0] + got["game"][0]})
        print("cold", worker[-1], cpython[-1], file=sys.stderr)
    return worker, cpython


def games_only(browser, url: str, lesson: str, rounds: int = 3) -> dict:
    """Play live's cold start and games/s of simulate_point, each timed inside the Python that runs it
    (live.timed_simulate_point) in the page's worker and in this CPython, random and heuristic bots,
    `rounds` alternating rounds (the worker, then CPython, per game and bots); the best round of each."""
    from meeple.course.site.runtime import live

    worker_cold, cpython_cold = cold_starts(browser, url, lesson, rounds)
    context = browser.new_context()
    page = context.new_page()
    page.goto(f"{url}/{lesson}.html")
    page.locator(".meeple-play-live").first.click()
    page.wait_for_selector(".meeple-stepper[data-meeple-live=live]", timeout=300_000)
    rows, clock, gap, differ, calls = {}, None, 0.0, 0, 0
    drift = 0.0  # the largest |process_time - perf_counter| / perf_counter of a worker's call
    for game, n in GAMES.items():
        for bots in ("random", "heuristic"):
            args = _args(game, bots, n)
            best = [float("inf")] * 3  # the worker's perf_counter, CPython's perf_counter, CPython's process_time
            for _ in range(rounds):
                there, trip = _in_worker(page, args)
                here = json.loads(live.timed_simulate_point(*args))
                calls += 1
                differ += there["rows"] != here["rows"]
                clock = there["process_clock"]
                drift = max(drift, abs(there["process_time"] - there["perf_counter"]) / there["perf_counter"])
                gap = max(gap, trip - there["perf_counter"])
                best = [min(best[0], there["perf_counter"]), min(best[1], here["perf_counter"]),
                        min(best[2], here["process_time"])]
            rows[(game, bots)] = (n, *best)
            print(game, bots, rows[(game, bots)], file=sys.stderr)
    context.close()
    return {"rows": rows, "clock": clock, "drift": drift, "gap": gap, "differ": differ, "calls": calls,
            "cold": (min(worker_cold, key=lambda r: r["total"]), min(cpython_cold, key=lambda r: r["total"]))}


def games_only_text(got: dict, site: dict, load: tuple[float, float]) -> str:
    worker, cpython = got["cold"]
    same = ("the worker's rows equal CPython's in every call" if not got["differ"] else
            f"the worker's rows differ from CPython's in {got['differ']} of {got['calls']} calls")
    lines = [f"Measured {time.strftime('%Y-%m-%d %H:%M')}, Pyodide {site['pyodide']} (Python {worker['version']}) in "
             f"Chromium headless beside CPython {sys.version.split()[0]}; load average {load[0]:.1f} at the start, "
             f"{load[1]:.1f} after (the machine is shared: best of 3 rounds alternating the worker and CPython). "
             "Each Python times itself (`live.timed_simulate_point`): CPython by process_time (CPU) and perf_counter "
             "(wall). A browser gives a worker no CPU clock: Pyodide's process_time is "
             f"`{got['clock']}`, which Emscripten counts in wall time (here it differed from perf_counter by at most "
             f"{got['drift']:.1%}), so the worker's figure is its perf_counter, performance.now() read inside the worker "
             "(0.1 ms steps): wall time, which also counts the worker's thread waiting for a core (compare it with "
             f"CPython's wall). The page's call there and back added at most {got['gap'] * 1e3:.0f} ms; {same}.", "",
             f"Play live cold start (empty cache, the files from loopback, best of 3): the worker, by its performance.now() from its creation: "
             f"Pyodide {worker['python']:.1f} s, the meeple wheel installed and imported {worker['meeple']:.1f} s, "
             f"a first game ({COLD_GAME[0]}, {COLD_GAME[1]} bots) {worker['game'] * 1e3:.0f} ms: "
             f"**{worker['total']:.1f} s** (the page waited {worker['page']:.1f} s from the click). "
             f"CPython, a fresh interpreter (perf_counter, CPU in brackets): start {cpython['python'] * 1e3:.0f} ms "
             f"({cpython['python_cpu'] * 1e3:.0f}), `import meeple.course.site.runtime.live` {cpython['meeple'] * 1e3:.0f} ms "
             f"({cpython['meeple_cpu'] * 1e3:.0f}), the first game {cpython['game'] * 1e3:.0f} ms "
             f"({cpython['game_cpu'] * 1e3:.0f}): **{cpython['total']:.2f} s**; the worker takes "
             f"{worker['total'] / cpython['total']:.0f}x as long.", "",
             "| game | games | random: worker games/s | CPython games/s, CPU (wall) | worker / CPython time, CPU (wall) "
             "| heuristic: worker games/s | CPython games/s, CPU (wall) | worker / CPython time, CPU (wall) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|"]
    for game, n in GAMES.items():
        cells = []
        for bots in ("random", "heuristic"):
            _, there, wall, cpu = got["rows"][(game, bots)]
            cells.append(f"{n / there:,.0f} | {n / cpu:,.0f} ({n / wall:,.0f}) | {there / cpu:.1f}x ({there / wall:.1f}x)")
        lines.append(f"| {game} | {n} | {' | '.join(cells)} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--site", type=Path, default=ROOT / "lessons" / "_build" / "html", help="a built site (make site)")
    ap.add_argument("--update", metavar="FILE.md", help="replace the text between the site-bench markers in FILE.md")
    ap.add_argument("--games-only", action="store_true", help="only games/s in the worker beside CPython (issue 21; "
                    "with --update: between <!-- site-games:start/end -->)")
    args = ap.parse_args()
    html = args.site.resolve()
    if not (html / "index.html").exists():
        raise SystemExit(f"bench_site: no site in {html}: run `make site` first (or pass --site)")
    pages = ["intro"] + sorted(p.stem for p in html.glob("[0-9]*.html"))
    with_stepper = [p for p in pages if "meeple-stepper" in (html / f"{p}.html").read_text() or
                    "Stepper" in (html / f"{p}.html").read_text()]
    from playwright.sync_api import sync_playwright

    if args.games_only:
        steppers = [n for n in with_stepper if n != "intro"]
        if not steppers:
            raise SystemExit(f"bench_site: no page with a Stepper in {html}: build one with python -m meeple.course.site.build --lessons")
        load0 = os.getloadavg()[0]
        proc, url = serve(html)
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=chromium(), headless=True, args=CHROMIUM_ARGS)
                got = games_only(browser, url, steppers[0])
                browser.close()
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
        site = json.loads((html / "_static" / "meeple-site.json").read_text())
        table = games_only_text(got, site, (load0, os.getloadavg()[0]))
        print(table)
        if args.update:
            _replace(args.update, "site-games", table)
        return

    proc, url = serve(html)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium(), headless=True, args=CHROMIUM_ARGS)
            sizes = page_bytes(browser, url, pages)
            steppers = [n for n in with_stepper if n != "intro"]
            live = play_live(browser, url, steppers[0], steppers[1] if len(steppers) > 1 else None)
            browser.close()
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
    cpy = cpython_games()
    site = json.loads((html / "_static" / "meeple-site.json").read_text())
    mb = lambda b: f"{b / 1e6:.2f} MB"
    lines = [f"Site: {html.relative_to(ROOT) if html.is_relative_to(ROOT) else html.name} "
             f"({len(pages) - 1} lessons), Pyodide {site['pyodide']}, measured {time.strftime('%Y-%m-%d')}.", "",
             "| page | cold: bytes (requests) | warm: bytes (requests) | widgets drawn, cold |", "|---|---:|---:|---:|"]
    lines += [f"| {r['page']} | {mb(r['cold'])} ({r['requests']}) | {r['warm'] / 1e3:.0f} kB ({r['warm_requests']}) | "
              f"{r['drawn']:.1f} s |" for r in sizes]
    lines += ["", f"Play live adds {mb(live['python_bytes'])} on the first start (Pyodide {mb(site['bytes']['pyodide'])} "
              f"and the meeple wheel {site['bytes']['wheel'] / 1e3:.0f} kB, as served: http.server does not compress).", "",
              "| Play live to playable | seconds |", "|---|---:|",
              f"| first start, empty cache ({live['worker'].get('python_seconds', 0):.1f} s Pyodide, "
              f"{live['worker'].get('meeple_seconds', 0):.1f} s meeple) | {live['cold']:.1f} |"]
    if live["warm"] is not None:
        lines.append(f"| next page of the visit (browser cache: {live['warm_bytes'] / 1e3:.0f} kB fetched) | {live['warm']:.1f} |")
    lines += ["", "| game (heuristic bots, base rules) | browser games/s (wall) | CPython games/s, wall (CPU) | browser time / CPython time (wall) |",
              "|---|---:|---:|---:|"]
    for game in GAMES:
        n, secs = live["browser_games"][game]
        _, wall, cpu = cpy[game]
        lines.append(f"| {game} | {n / secs:.0f} | {n / wall:.0f} ({n / cpu:.0f}) | {secs / wall:.1f}x |")
    table = "\n".join(lines)
    print(table)
    if args.update:
        _replace(args.update, "site-bench", table)


def _replace(update: str, name: str, table: str) -> None:
    """Put `table` between <!-- NAME:start --> and <!-- NAME:end --> in the file `update` (atomically)."""
    text = Path(update).read_text()
    new, k = re.subn(rf"(<!-- {name}:start -->\n).*?(\n<!-- {name}:end -->)", lambda m: m[1] + table + m[2], text,
                     flags=re.S)
    if not k:
        raise SystemExit(f"{update} has no <!-- {name}:start --> ... <!-- {name}:end --> markers")
    Path(update + ".tmp").write_text(new)
    os.replace(update + ".tmp", update)


if __name__ == "__main__":
    main()
