"""Compiled templates kept between builds (roofline_site.template_cache)."""

from __future__ import annotations

from pathlib import Path
from unittest import mock

import jinja2

from roofline_site.template_cache import CACHE_DIR_NAME, compile_settings_key, compiled_template_cache

PAGE = "{% for item in items %}<li>{{ item }}</li>{% endfor %}"


def _env(templates: Path, **options) -> jinja2.Environment:
    return jinja2.Environment(loader=jinja2.FileSystemLoader(str(templates)), auto_reload=False, **options)


def _render(env: jinja2.Environment, project: Path) -> tuple[str, int]:
    """The page rendered through a cache in ``project``, and how many templates were compiled."""
    env.bytecode_cache = compiled_template_cache(env, project)
    with mock.patch.object(env, "compile", wraps=env.compile) as compile_:
        html = env.get_template("page.html").render(items=["a", "b"])
    return html, compile_.call_count


def test_a_second_build_reads_the_compiled_template_and_renders_the_same(tmp_path):
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    first, compiled_first = _render(_env(tmp_path), tmp_path)
    second, compiled_second = _render(_env(tmp_path), tmp_path)
    assert (compiled_first, compiled_second) == (1, 0)
    assert first == second == "<li>a</li><li>b</li>"
    assert any((tmp_path / CACHE_DIR_NAME).rglob("__jinja2_*.cache"))


def test_an_edited_template_is_compiled_again(tmp_path):
    (tmp_path / "page.html").write_text(PAGE, encoding="utf-8")
    _render(_env(tmp_path), tmp_path)
    (tmp_path / "page.html").write_text(PAGE.replace("<li>", "<li class=x>"), encoding="utf-8")
    html, compiled = _render(_env(tmp_path), tmp_path)
    assert compiled == 1
    assert html == "<li class=x>a</li><li class=x>b</li>"


def test_other_syntax_or_extensions_use_another_folder(tmp_path):
    plain = compile_settings_key(_env(tmp_path))
    assert compile_settings_key(_env(tmp_path)) == plain
    assert compile_settings_key(_env(tmp_path, trim_blocks=True)) != plain
    assert compile_settings_key(_env(tmp_path, autoescape=True)) != plain
    assert compile_settings_key(_env(tmp_path, extensions=["jinja2.ext.i18n"])) != plain


def test_trimmed_blocks_are_not_served_from_the_untrimmed_record(tmp_path):
    (tmp_path / "page.html").write_text("{% if true %}\nx{% endif %}", encoding="utf-8")
    assert _render(_env(tmp_path), tmp_path)[0] == "\nx"
    assert _render(_env(tmp_path, trim_blocks=True), tmp_path) == ("x", 1)


def test_an_environment_whose_functions_shape_the_code_keeps_no_cache(tmp_path):
    # A callable autoescape's repr names its address, new in every process; and what it or a
    # finalize returns is baked into the compiled code, which no folder name could say.
    assert compiled_template_cache(_env(tmp_path, autoescape=jinja2.select_autoescape()), tmp_path) is None
    assert compiled_template_cache(_env(tmp_path, finalize=str.upper), tmp_path) is None
    assert not (tmp_path / CACHE_DIR_NAME).exists()
    assert compiled_template_cache(_env(tmp_path), tmp_path) is not None
