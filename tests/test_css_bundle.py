"""One stylesheet per page (_ext/css_bundle.py): the same rules in the same order, urls that still point at
their files, and only rules that cannot match anything on the site left out."""

from __future__ import annotations

import pytest
from css_bundle import blocks, bundle_part, drop_unused_rules, may_match, site_words


def test_urls_are_rebased_and_an_import_is_refused(tmp_path):
    (tmp_path / "_static" / "styles").mkdir(parents=True)
    (tmp_path / "_static" / "styles" / "theme.css").write_text(
        '@charset "utf-8";\n.b { background: url("../img/x.png?v=1"); }\n'
        ".t { src: url(../vendor/f.woff2) url(data:x) url(https://e.org/f.woff); }\n/* @import in a comment */")
    css = bundle_part(tmp_path, "_static/styles/theme.css", "_static/bundles")
    assert '.b { background: url("../img/x.png?v=1"); }' in css
    assert "url(../vendor/f.woff2) url(data:x) url(https://e.org/f.woff)" in css
    assert "@charset" not in css
    (tmp_path / "_static" / "theme.css").write_text('@import "basic.css";')
    with pytest.raises(ValueError, match="imports a stylesheet"):
        bundle_part(tmp_path, "_static/theme.css", "_static/bundles")


def test_blocks_respect_strings_and_nesting():
    css = "a{b:c}@media (x){.y{z:1}}@import 'q';d{content:'}'}"
    assert blocks(css) == [("a", "b:c"), ("@media (x)", ".y{z:1}"), ("@import 'q';", None), ("d", "content:'}'")]


def test_a_rule_goes_only_when_every_selector_needs_an_absent_class():
    words = frozenset({"nav", "show", "bs-tooltip-"})
    assert may_match(".nav .show", words)
    assert not may_match(".nav .unused", words)
    assert may_match("p:not(.unused)", words), "an element may lack a class that :not() excludes"
    assert may_match(".bs-tooltip-top", words), "a script builds it from the prefix bs-tooltip-"
    assert may_match(r".sm\:flex", words), "escaped selectors are kept"
    assert drop_unused_rules("/* see app.js */\n.nav{a:1}", words) == ".nav{a:1}", "a comment is no selector"
    css = ".nav{a:1}.unused,.gone{b:2}.unused,.show{c:3}@media (x){.gone{d:4}}@media (y){.nav{e:5}}@font-face{f:6}"
    assert drop_unused_rules(css, words) == ".nav{a:1}\n.unused,.show{c:3}\n@media (y){.nav{e:5}}\n@font-face{f:6}"


def test_site_words_come_from_classes_inline_scripts_and_loaded_scripts(tmp_path):
    (tmp_path / "_static" / "vendor").mkdir(parents=True)
    (tmp_path / "_static" / "app.js").write_text("el.classList.add('opened')")
    (tmp_path / "_static" / "unused.js").write_text("el.classList.add('never')")
    (tmp_path / "_static" / "vendor" / "big.js").write_text("el.classList.add('vendored')")
    (tmp_path / "page.html").write_text('<p class="lead note">prose words</p><script>var x = "inline-class";</script>'
                                        '<script src="_static/app.js?v=1"></script>'
                                        '<script src="_static/vendor/big.js"></script>')
    words = site_words(tmp_path)
    assert {"lead", "note", "inline-class", "opened"} <= words
    assert not {"prose", "never", "vendored"} & words
