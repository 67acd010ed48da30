"""`meeple report` opens offline in Chromium: no request leaves the file, every chart is drawn (issue 25)."""

from __future__ import annotations

from meeple.rules import piggyback_brigade as pb
from meeple.rules.workbench import compare_run
from meeple.widgets.report import write_report


def test_the_report_opens_offline_and_draws_every_chart(browser, tmp_path, shots):
    cmp = compare_run("piggyback-brigade", {"base": None, "ext2": pb.Config().with_text(["extensions_per_player=2"]),
                                         "r3": pb.Config(max_rerolls=3)}, "heuristic", 40, 1, progress=False,
                   workers=1, measures=["rerolls"])
    path = write_report(cmp, tmp_path / "report.html")
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    asked = []
    page.on("request", lambda r: asked.append(r.url))
    page.goto(path.resolve().as_uri())
    page.wait_for_load_state("load")
    page.screenshot(path=str(shots / "report.png"), full_page=True)
    assert asked == [path.resolve().as_uri()], asked  # the page itself, nothing else
    figures = page.locator("figure.chart")
    assert figures.count() == 4
    for k in range(figures.count()):
        svg = figures.nth(k).locator("svg").first
        box = svg.bounding_box()
        assert box and box["width"] > 100 and box["height"] > 40, (k, box)
        marks = svg.locator("path, line, rect").count()
        assert marks > 5, (k, marks)  # axes and marks drawn, not an empty frame
    warnings = page.locator("p.warn").all_inner_texts()
    assert any("ext2 changes extensions[2]" in w for w in warnings), warnings
    page.close()
