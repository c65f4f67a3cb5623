"""hooks/wheel.py: the built site publishes roofline_core's wheel, and its snippets work with it.

The wheel is installed the way a reader would, with the install line a page's snippet starts
with, by the real pip (the one ``python -m venv`` puts in a fresh virtual environment), from the
site served over HTTP, offline (``--no-index``, and no pip configuration). The page's snippets
then run in that environment, away from this checkout, and print exactly the page's text.
"""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from roofline_site import wheel
from tests.support.site_build import PROJECT_ROOT
from tests.support.static_server import StaticServer

pytestmark = pytest.mark.slow

#: Term pages whose numbers are checked: plain numbers, and times printed with their parts.
PAGES = ("glossary/kv-cache/", "glossary/decode/")
CALCULATOR_PAGE = "calculators/decode-speed-of-light/"
_NUMBER = re.compile(r'<span class="roofline-quantity" data-quantity="(\d+)">([^<]*)</span>')
_SCRIPT_LINK = re.compile(r'class="roofline-reproduce__script" href="([^"]+)"')
_OUTPUT = re.compile(r'data-output="([^"]+)">([^<]+)<')


def _clean_env(tmp_path: Path) -> dict[str, str]:
    """No PYTHONPATH (this checkout must not be importable), no pip configuration or index."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PIP_", "PYTHON"))}
    return {**env, "PIP_CONFIG_FILE": os.devnull, "PIP_DISABLE_PIP_VERSION_CHECK": "1", "HOME": str(tmp_path)}


@pytest.fixture(scope="module")
def reader_env(built_site, tmp_path_factory):
    """A fresh virtual environment with the site's wheel installed by its published install line."""
    tmp = tmp_path_factory.mktemp("reader")
    venv = tmp / "venv"
    env = _clean_env(tmp)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, env=env, timeout=300)
    python = venv / "bin" / "python"
    script = (built_site / _numbers_script_path(built_site, PAGES[0])).read_text(encoding="utf-8")
    install = script.splitlines()[0]
    # The line a build without SITE_URL writes: "<site>" is the address the reader reads it at.
    assert install.startswith("# pip install --force-reinstall <site>/wheels/"), install
    with StaticServer(built_site) as server:
        command = install.removeprefix("# ").split(" (", 1)[0].replace("<site>/", server.url)
        args = command.split()[2:]  # after "pip install"
        run = subprocess.run(
            [str(python), "-m", "pip", "install", "--no-index", "--no-deps", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp,
            timeout=300,
        )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Successfully installed roofline-core-" in run.stdout
    return python, env, tmp


def _numbers_script_path(built_site: Path, page: str) -> Path:
    text = (built_site / page / "index.html").read_text(encoding="utf-8")
    (href,) = _SCRIPT_LINK.findall(text)
    return Path(page) / html.unescape(href)


def _run(reader_env, code: str) -> subprocess.CompletedProcess:
    python, env, tmp = reader_env
    return subprocess.run(
        [str(python), "-c", code], capture_output=True, text=True, env=env, cwd=tmp, timeout=120, check=False
    )


def test_the_site_serves_the_wheel_at_its_hashed_and_its_stable_address(built_site):
    immutable, stable = sorted(p for p in (built_site / wheel.SITE_DIR).rglob("*") if p.is_file())
    data = stable.read_bytes()
    assert immutable.read_bytes() == data
    assert stable.relative_to(built_site).as_posix() == wheel.stable_path()
    assert immutable.relative_to(built_site).as_posix() == wheel.site_paths(wheel.Wheel(stable.name, data))[0]
    # The wheel holds the code this checkout builds with (no SITE_URL: no addresses in its metadata).
    assert data == wheel.build_wheel().data


def test_the_installed_package_is_the_wheel_not_this_checkout(reader_env):
    python, _, tmp = reader_env
    run = _run(reader_env, "import roofline_core; print(roofline_core.__file__)")
    assert run.returncode == 0, run.stderr
    assert Path(run.stdout.strip()).is_relative_to(tmp / "venv"), run.stdout
    run = _run(
        reader_env,
        "from importlib.resources import files; print(files('roofline_core').joinpath('py.typed').is_file())",
    )
    assert run.stdout.strip() == "True"


@pytest.mark.parametrize("page", PAGES)
def test_a_pages_numbers_script_prints_exactly_the_pages_numbers(built_site, reader_env, page):
    shown = {int(n): html.unescape(text) for n, text in _NUMBER.findall((built_site / page / "index.html").read_text())}
    assert shown, page
    script = (built_site / _numbers_script_path(built_site, page)).read_text(encoding="utf-8")
    run = _run(reader_env, script)
    assert run.returncode == 0, run.stderr
    # The data version matches the page's: no warning.
    assert run.stderr == ""
    # Each number is one line; a time's parts follow it, indented.
    printed = [line for line in run.stdout.splitlines() if not line.startswith("  ")]
    assert printed == [shown[index] for index in range(len(shown))]


def test_a_pinned_other_data_version_warns_in_one_line_and_still_prints(built_site, reader_env):
    script = (built_site / _numbers_script_path(built_site, PAGES[0])).read_text(encoding="utf-8")
    (pinned,) = re.findall(r"check_data_version\('([0-9a-f]{12})'\)", script)
    run = _run(reader_env, script.replace(pinned, "000000000000"))
    assert run.returncode == 0 and run.stdout
    assert run.stderr.count("\n") == 1 and "000000000000" in run.stderr and pinned in run.stderr


_SNIPPET = """
import { pythonSnippet } from "./site_assets/calculators/share.mjs";
process.stdout.write(pythonSnippet(JSON.parse(process.argv[1])));
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="needs Node.js to run the page's module")
def test_copy_as_python_on_a_calculator_page_prints_its_results(built_site, reader_env):
    text = (built_site / CALCULATOR_PAGE / "index.html").read_text(encoding="utf-8")
    island = json.loads(html.unescape(re.search(r'data-calculator-data="([^"]+)"', text).group(1)))
    version = re.search(r'data-data-version="([0-9a-f]+)"', text).group(1)
    definition = island["definition"]
    scenario = {
        "id": "decode-speed-of-light",
        "title": definition["title"],
        "values": {},  # the page's own inputs
        "version": version,
        "install": island["install"],
        "link": "https://example.org/x/",
        "inputs": definition["inputs"],
        "outputs": definition["outputs"],
    }
    snippet = subprocess.run(
        ["node", "--input-type=module", "-e", _SNIPPET, json.dumps(scenario)],
        capture_output=True,
        text=True,
        cwd=PROJECT_ROOT,
        timeout=60,
        check=True,
    ).stdout
    assert snippet.splitlines()[0] == island["install"] == wheel.install_comment(None)
    run = _run(reader_env, snippet)
    assert run.returncode == 0 and run.stderr == "", run.stderr
    labels = {output["id"]: output["label"] for output in definition["outputs"]}
    page_outputs = {key: html.unescape(value) for key, value in _OUTPUT.findall(text)}
    assert page_outputs
    printed = set(run.stdout.splitlines())
    for key, value in page_outputs.items():
        assert f"{labels[key]}: {value}" in printed, key
