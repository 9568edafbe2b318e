"""Every theorem of the book is checked: this file lists, for each ``prf:theorem`` label, the claim checks of
``posenc.book.claims`` that test it, and fails on a theorem with none, on a check that does not exist, on a
check that its chapter does not run where the reader sees it, and on one that the chapter's tests do not assert.

A theorem the book quotes from its source without checking it (a textbook fact such as the spectral theorem)
carries ``:class: cited`` in its directive and cites that source in its statement; it is then exempt.
"""

from __future__ import annotations

import importlib
import re

import nbformat
import pytest
from conftest import ROOT

CHECKED_BY = {
    "thm-permutation-equivariance": ("permutation_equivariance", "permutation_equivariance_torch",
                                     "permutation_equivariance_encoder"),
    "thm-untouched-rows": ("untrained_rows_unchanged", "decayed_rows_only_shrink"),
    "thm-sinusoidal-offset": ("sinusoidal_offset", "sinusoidal_cosine_similarity", "far_pair_matches_near_pair"),
    "thm-shift-matrix": ("shift_blocks_turn_clockwise", "sinusoidal_shift"),
    "thm-four-terms": ("added_encoding_expansion", "repeated_token_terms"),
    "thm-plane-rotations-compose": ("rotation_difference_sample", "rope_turns_each_pair",
                                    "rope_scores_depend_on_offset"),
    "thm-rotation-forced": ("position_maps_offset_only", "powers_of_one_orthogonal", "rotation_form_holds"),
    "thm-plane-rotation-norm": ("plane_norm_preserved",),
    "thm-plane-toeplitz": ("repeated_token_toeplitz",),
    "thm-repeated-token-toeplitz": ("repeated_token_toeplitz",),
    "thm-offset-sinusoid": ("offset_sinusoid",),
    "thm-profile-trig-polynomial": ("offset_trig_polynomial",),
    "thm-reachable-profiles": ("reachable_profile",),
    "thm-circulant-dft": ("dft_diagonalises_circulant",),
    "thm-clock-identities": ("norm_preserved", "block_rotation_orthogonal", "block_rotation_difference"),
    "thm-clock-distance-offset": ("clock_distance_depends_on_offset",),
    "thm-clock-advance": ("clock_advance",),
    "thm-kv-cache": ("kv_cache_matches_recompute",),
    "thm-checkpoint-conversion": ("checkpoint_conversion",),
    "thm-integers-exact": ("integers_exact_up_to",),
    "thm-ntk-ends": ("ntk_aware_ends",),
    "thm-llama3-is-yarn": ("llama3_is_yarn_ramp",),
    "thm-long-term-decay": ("long_term_decay_bound_holds",),
    "thm-pi-scaled-positions": ("interpolation_is_scaled_positions",),
    "thm-shaw-toeplitz": ("shaw_repeated_token_toeplitz",),
    "thm-transformer-xl-offset": ("transformer_xl_shift_invariant", "absolute_expansion_counterexample"),
    "thm-t5-toeplitz": ("t5_bias_toeplitz",),
    "thm-alibi-toeplitz": ("alibi_bias_toeplitz",),
    "thm-xpos-offset": ("xpos_scores_depend_on_offset",),
    "thm-nope-causal": ("causal_permutation_equivariance",),
    "thm-partial-rotary": ("partial_rotary_depends_on_offset",),
    "thm-axial-offset": ("axial_scores_depend_on_2d_offset",),
    "thm-mrope-text": ("mrope_on_text_is_rope",),
    "thm-t2t-half": ("timing_signal_is_half_layout",),
    "thm-yarn-is-longrope": ("yarn_is_a_longrope_ladder", "dynamic_ntk_is_a_longrope_ladder_at_each_length"),
    "thm-longrope-temperature": ("longrope_logit_factor",),
    "thm-nope-in-a-stack": ("stack_permutation_equivariance", "stack_sees_only_offsets"),
    "thm-window-angles": ("window_offsets_do_not_grow", "slow_hands_barely_move"),
    "thm-mrope-split": ("each_axis_owns_its_count_and_a_fast_hand", "interleaved_mrope_turns_each_pair_by_its_axis",
                        "interleaved_mrope_on_text_is_rope"),
    "thm-mla-absorption": ("only_the_zero_query_has_an_absorbed_form", "absorbed_score_equals_explicit",
                           "mla_scores_equal_explicit_keys"),
}

THEOREM = re.compile(r"^(`{3,})\{prf:theorem\}[^\n]*\n((?::[\w-]+:[^\n]*\n)*)(.*?)^\1$", re.MULTILINE | re.DOTALL)


def chapters() -> list:
    return sorted((ROOT / "chapters").glob("[0-9][0-9]_*.ipynb"))


def theorems() -> dict[str, dict]:
    """``{label: {"chapter": "04", "classes": [...], "statement": text}}`` for every theorem of the chapters."""
    found = {}
    for path in chapters():
        for cell in nbformat.read(str(path), as_version=4).cells:
            if cell.cell_type != "markdown":
                continue
            for _, options, statement in THEOREM.findall(cell.source):
                fields = dict(re.findall(r"^:([\w-]+):\s*(.*)$", options, re.MULTILINE))
                assert "label" in fields, f"{path.name}: a theorem without a :label:: {statement[:60]!r}"
                found[fields["label"]] = {"chapter": path.name[:2], "classes": fields.get("class", "").split(),
                                          "statement": statement}
    return found


THEOREMS = theorems()


def code_of(chapter: str) -> str:
    path = next(p for p in chapters() if p.name.startswith(chapter))
    return "\n".join(c.source for c in nbformat.read(str(path), as_version=4).cells if c.cell_type == "code")


def test_every_theorem_is_checked_or_marked_as_cited():
    unchecked = [label for label, theorem in THEOREMS.items()
                 if label not in CHECKED_BY and "cited" not in theorem["classes"]]
    assert unchecked == [], f"list the claim checks of {unchecked} in CHECKED_BY, or mark them `:class: cited`"


def test_every_listed_theorem_is_in_the_book_and_not_marked_as_cited():
    assert sorted(set(CHECKED_BY) - set(THEOREMS)) == []
    assert [label for label in CHECKED_BY if "cited" in THEOREMS[label]["classes"]] == []


def test_a_cited_theorem_cites_its_source():
    uncited = [label for label, theorem in THEOREMS.items()
               if "cited" in theorem["classes"] and "{cite" not in theorem["statement"]]
    assert uncited == []


@pytest.mark.parametrize("label", sorted(CHECKED_BY))
def test_each_check_exists_runs_on_its_page_and_is_asserted_by_the_chapters_tests(label):
    chapter = THEOREMS[label]["chapter"]
    claims = importlib.import_module(f"posenc.book.claims.ch{chapter}")
    tests = (ROOT / "tests" / f"test_ch{chapter}.py").read_text(encoding="utf-8")
    page = code_of(chapter)
    for name in CHECKED_BY[label]:
        assert callable(getattr(claims, name, None)), f"{label}: no claim check {name} in {claims.__name__}"
        assert re.search(rf"\b{name}\(", page), f"{label}: chapter {chapter} never runs {name}"
        assert re.search(rf"claims\.{name}\(", tests), f"{label}: tests/test_ch{chapter}.py never asserts {name}"
