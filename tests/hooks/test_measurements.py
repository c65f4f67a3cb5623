"""The measurements hook in real MkDocs builds: the marker becomes the comparison; bad data stops the build."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from tests.hooks.site_fixture import build, make_site
from tests.support.site_build import PROJECT_ROOT

PAGE = "# Checked\n\nIntro.\n\n<!-- roofline:measurements -->\n"
SUMMARY_PAGE = "# Summary\n\n<!-- roofline:measurements-summary -->\n"


def _project(tmp_path, data: str | None):
    config = make_site(tmp_path / "project", {"index.md": "# Home\n", "checked.md": PAGE, "summary.md": SUMMARY_PAGE})
    if data is not None:
        (tmp_path / "project" / "measurements").mkdir()
        (tmp_path / "project" / "measurements" / "measurements.toml").write_text(data, encoding="utf-8")
    return config


@pytest.mark.slow
def test_the_marker_becomes_the_comparison_and_a_data_error_stops_the_build(tmp_path):
    data = (PROJECT_ROOT / "measurements" / "measurements.toml").read_text(encoding="utf-8")
    result = build(_project(tmp_path / "good", data))
    assert result.returncode == 0, result.stdout + result.stderr
    html = (tmp_path / "good" / "project" / "site" / "checked" / "index.html").read_text(encoding="utf-8")
    assert "roofline:measurements" not in html
    assert "Fitted efficiencies" in html and "Closing note" in html
    assert 'id="gptfast-llama2-7b-bf16"' in html
    # Each marker is replaced on its own: the summary page gets the chart, drawn into its own file.
    assert "At a glance" not in html
    summary = (tmp_path / "good" / "project" / "site" / "summary" / "index.html").read_text(encoding="utf-8")
    assert "At a glance" in summary and 'data-figure-kind="measured-vs-predicted"' in summary
    (svg,) = re.findall(r'src="\.\./(assets/roofline/figures/svg/figure\.[0-9a-f]+\.svg)"', summary)
    assert (tmp_path / "good" / "project" / "site" / svg).read_text(encoding="utf-8").startswith("<svg")

    broken = data.replace('metric = "ttft_ms"', 'metric = "latency"', 1)
    line = broken[: broken.index('metric = "latency"')].count("\n") + 1
    result = build(_project(tmp_path / "bad", broken))
    assert result.returncode != 0
    assert f"measurements/measurements.toml:{line}: measurement: metric 'latency'" in result.stdout + result.stderr

    shutil.rmtree(tmp_path / "bad")
    result = build(_project(tmp_path / "missing", None))
    assert result.returncode != 0
    assert "measurements/measurements.toml: missing; expected the measurements table" in result.stdout + result.stderr


@pytest.mark.slow
def test_a_warm_build_reads_the_page_back_and_a_changed_file_makes_it_again(tmp_path):
    data = (PROJECT_ROOT / "measurements" / "measurements.toml").read_text(encoding="utf-8")
    config = _project(tmp_path, data)
    assert build(config).returncode == 0
    project = tmp_path / "project"
    (kept,) = (project / ".cache" / "measurements-page").glob("*.json")
    # What the next build shows comes from the kept page: mark it and look for the mark.
    generated = json.loads(kept.read_text(encoding="utf-8"))
    generated["details"] += "\nKept between builds.\n"
    kept.write_text(json.dumps(generated), encoding="utf-8")
    assert build(config).returncode == 0
    assert "Kept between builds." in (project / "site" / "checked" / "index.html").read_text(encoding="utf-8")

    # Another data file is another key: fitted afresh, and the old page is dropped.
    (project / "measurements" / "measurements.toml").write_text(data + "\n# edited\n", encoding="utf-8")
    assert build(config).returncode == 0
    (fresh,) = (project / ".cache" / "measurements-page").glob("*.json")
    assert fresh.name != kept.name
    assert "Kept between builds." not in (project / "site" / "checked" / "index.html").read_text(encoding="utf-8")
