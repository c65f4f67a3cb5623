"""roofline_site.csp: inline-code hashing, the policy string, and the _headers file."""

from __future__ import annotations

import base64
import hashlib
import re
from pathlib import Path

import pytest

from roofline_site import csp
from tests.support.site_build import PROJECT_ROOT


def test_hash_is_sha256_of_the_exact_script_text():
    text = 'var palette=__md_get("__palette");'
    expected = base64.b64encode(hashlib.sha256(text.encode()).digest()).decode()
    assert csp.sha256_source(text) == f"'sha256-{expected}'"


def test_inline_code_finds_executable_scripts_styles_and_style_attributes_only():
    html = (
        '<script src="a.js"></script><script>run()</script><script type="module">go()</script>'
        '<script type="application/json">{"a": "<b>"}</script><style>p{color:red}</style>'
        '<p style="color: blue">x</p>'
    )
    found = csp.inline_code(html)
    assert found.scripts == ("run()", "go()")
    assert found.styles == ("p{color:red}",)
    assert found.style_attributes == ("color: blue",)
    assert found.style_attributes_outside_svg == ("color: blue",)


def test_style_attributes_inside_inline_svg_are_told_apart():
    found = csp.inline_code('<svg><path style="fill: red"/><g style="x"></g></svg><p style="y">t</p>')
    assert found.style_attributes == ("fill: red", "x", "y")
    assert found.style_attributes_outside_svg == ("y",)


def test_style_src_attr_appears_only_when_asked():
    assert "style-src-attr" not in csp.policy()
    assert csp.policy(style_attributes=True).endswith("; style-src-attr 'unsafe-inline'")


def test_scan_site_collects_unique_sorted_hashes(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "index.html").write_text("<script>one()</script><script>two()</script>", encoding="utf-8")
    (tmp_path / "a" / "index.html").write_text("<script>one()</script>", encoding="utf-8")
    found = csp.scan_site(tmp_path)
    assert found.script_hashes == tuple(sorted({csp.sha256_source("one()"), csp.sha256_source("two()")}))
    assert found.style_hashes == ()


def test_policy_lists_every_directive_once_with_hashes_in_script_src():
    policy = csp.policy(script_hashes=("'sha256-abc='",))
    names = [part.split()[0] for part in policy.split("; ")]
    assert names == [d.name for d in csp.DIRECTIVES]
    assert "script-src 'self' 'wasm-unsafe-eval' 'sha256-abc='" in policy
    assert "unsafe-inline" not in policy and "'unsafe-eval'" not in policy


def test_headers_file_round_trips():
    text = csp.headers_file("default-src 'none'")
    rules = csp.parse_headers_file(text)
    assert rules["/*"]["Content-Security-Policy"] == "default-src 'none'"
    assert rules["/*"]["X-Content-Type-Options"] == "nosniff"
    # The downloads' CSV files are UTF-8 text a spreadsheet opens.
    assert rules["/*.csv"] == {"Content-Type": "text/csv; charset=utf-8"}
    # roofline_core's wheels go out as what they are, a zip.
    assert rules["/wheels/*"] == {"Content-Type": "application/zip"}


def test_images_may_be_blobs_for_png_downloads_but_scripts_may_not():
    directives = {d.name: d.sources for d in csp.DIRECTIVES}
    assert "blob:" in directives["img-src"]
    assert not any("blob:" in directives[name] for name in ("script-src", "style-src", "connect-src", "worker-src"))


def test_headers_file_error_names_the_line():
    with pytest.raises(ValueError, match=r"^_headers:1: 'X-Frame-Options: DENY'; expected '<path>'"):
        csp.parse_headers_file("  X-Frame-Options: DENY\n")


def test_every_directive_is_documented_in_hosting_page():
    doc = (PROJECT_ROOT / "docs" / "hosting.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^\| `([a-z-]+)` \|", doc, re.MULTILINE))
    assert documented == {d.name for d in csp.DIRECTIVES} | {csp.STYLE_ATTRIBUTES.name}
    for name, value, _reason in csp.EXTRA_HEADERS:
        assert f"{name}: {value}" in doc.replace("\n", " ")


# Known inline scripts and the meta policy ------------------------------------------------


def _templates(tmp_path):
    (tmp_path / "partials").mkdir()
    (tmp_path / "partials" / "scope.html").write_text(
        '<script>__md_scope=new URL("{{ config.extra.scope | d(base_url) }}",location)</script>\n'
        '<script src="{{ x }}"></script><script type="application/json">{"a": 1}</script>',
        encoding="utf-8",
    )
    (tmp_path / "base.html").write_text("<head><script>var palette=1</script></head>", encoding="utf-8")
    return csp.known_inline_scripts([tmp_path])


def test_known_scripts_come_from_the_templates_with_a_url_path_slot(tmp_path):
    known = _templates(tmp_path)
    assert sorted(k.template for k in known) == ["base.html", "partials/scope.html"]
    scope = next(k for k in known if k.template == "partials/scope.html")
    assert scope.instance("../..") == '__md_scope=new URL("../..",location)'
    with pytest.raises(ValueError, match="not a plain URL path"):
        scope.instance('",alert(1),"')


def test_only_known_scripts_are_authorised(tmp_path):
    known = _templates(tmp_path)
    ok = csp.authorise_scripts(['__md_scope=new URL("..",location)', "var palette=1"], known, page="a/index.html")
    assert ok == tuple(
        sorted({csp.sha256_source('__md_scope=new URL("..",location)'), csp.sha256_source("var palette=1")})
    )
    for hostile in ("alert(1)", '__md_scope=new URL("",alert(1),"",location)', "var palette=1;alert(1)"):
        with pytest.raises(
            csp.UnknownInlineScript,
            match=r"^a/index.html: inline script .* is not one of the theme's or the project's own",
        ):
            csp.authorise_scripts([hostile], known, page="a/index.html")


def test_known_script_hashes_for_a_base_url(tmp_path):
    known = _templates(tmp_path)
    assert csp.known_script_hashes(known, base_url=".") == tuple(
        sorted({csp.sha256_source('__md_scope=new URL(".",location)'), csp.sha256_source("var palette=1")})
    )


def test_the_real_theme_provides_materials_bootstrap_scripts():
    import material

    known = csp.known_inline_scripts(
        [Path(material.__file__).parent / "templates", PROJECT_ROOT / "site_assets" / "overrides"]
    )
    assert any(k.template == "partials/javascripts/base.html" for k in known)
    assert any(k.template == "partials/javascripts/palette.html" for k in known)


def test_meta_policy_drops_what_a_meta_tag_cannot_carry():
    full = csp.policy(script_hashes=("'sha256-abc='",)) + "; frame-ancestors 'none'; report-uri /r; sandbox"
    meta = csp.meta_policy(full)
    assert meta == csp.policy(script_hashes=("'sha256-abc='",))
    assert not {"frame-ancestors", "report-uri", "sandbox"} & {part.split()[0] for part in meta.split("; ")}


def test_the_inline_code_cache_reads_a_page_once_and_keeps_only_what_a_build_used(tmp_path, monkeypatch):
    from roofline_site import csp as module

    calls = []
    real = module.inline_code

    def counted(html):
        calls.append(html)
        return real(html)

    monkeypatch.setattr(module, "inline_code", counted)
    path = tmp_path / "cache.json"
    page = '<html><script>var a = 1;</script><p style="color: red">x</p></html>'
    other = "<html><script>var b = 2;</script></html>"
    first = module.InlineCodeCache(path)
    assert first.get(page) == real(page) and first.get(other).scripts == ("var b = 2;",)
    first.save()
    second = module.InlineCodeCache(path)
    assert second.get(page) == real(page)
    assert len(calls) == 2  # the second build read the page from the cache
    second.save()
    # The second build did not use `other`: it is gone from the file.
    assert len(module.InlineCodeCache(path)._stored) == 1
    # A damaged file is ignored, not trusted.
    path.write_text("{not json", encoding="utf-8")
    assert module.InlineCodeCache(path).get(page) == real(page)


def test_headers_file_declares_the_twins_and_text_files_types():
    rules = csp.parse_headers_file(csp.headers_file("default-src 'none'"))
    assert rules["/*.md"] == {"Content-Type": "text/markdown; charset=utf-8"}
    assert rules["/*.txt"] == {"Content-Type": "text/plain; charset=utf-8"}
