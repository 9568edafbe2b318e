"""Partial rotary, 2-D (axial) RoPE and M-RoPE: scores that depend on offsets only, built from apply_rope; M-RoPE's
ids, axes and rotation against transformers' Qwen2-VL and Qwen3-VL code."""

from types import SimpleNamespace

import numpy as np
import pytest
import torch
from hypothesis import assume, given
from hypothesis import strategies as st
from transformers import Qwen2VLTextConfig, Qwen3VLTextConfig
from transformers.models.qwen2_vl.configuration_qwen2_vl import Qwen2VLVisionConfig
from transformers.models.qwen2_vl.modeling_qwen2_vl import (
    Qwen2VLModel,
    Qwen2VLRotaryEmbedding,
    Qwen2VLVisionRotaryEmbedding,
    apply_rotary_pos_emb_vision,
)
from transformers.models.qwen2_vl.modeling_qwen2_vl import apply_rotary_pos_emb as qwen2_vl_rotate
from transformers.models.qwen3_vl.modeling_qwen3_vl import Qwen3VLTextRotaryEmbedding
from transformers.models.qwen3_vl.modeling_qwen3_vl import apply_rotary_pos_emb as qwen3_vl_rotate
from transformers.vision_utils import get_vision_position_ids

from posenc.rotary import apply_rope, interleaved_to_half, rope_matrix
from posenc.rotary_axes import (
    axial_rope,
    grid_positions,
    mrope,
    mrope_axes,
    mrope_ids,
    partial_rope,
)

seed = st.integers(0, 10_000)
position = st.integers(-5_000, 5_000)
even_d = st.integers(1, 32).map(lambda h: 2 * h)
fraction = st.sampled_from([0.25, 0.375, 0.4, 0.5, 0.75, 1.0])
layout = st.sampled_from(["interleaved", "half"])


def section_sizes(d: int):
    """Three non-negative pair counts adding up to d / 2 (the strategy)."""
    return st.tuples(st.integers(0, d // 2), st.integers(0, d // 2)).map(
        lambda cut: (min(cut), max(cut) - min(cut), d // 2 - max(cut)))


# ---- partial rotary ----


@pytest.mark.verifies("thm-partial-rotary")  # the rotated part is RoPE of width r, whose scores depend on n - m
@given(d=st.integers(4, 32).map(lambda h: 4 * h), f=fraction, seed=seed, layout=layout)
def test_partial_rope_turns_the_first_r_dims_with_a_ladder_of_width_r_and_leaves_the_rest(d, f, seed, layout):
    rng = np.random.default_rng(seed)
    x, positions = rng.standard_normal((3, 5, d)), rng.integers(0, 4096, 5)
    r = int(d * f)
    assume(r % 2 == 0)
    turned = partial_rope(x, positions, rotary_fraction=f, layout=layout)
    np.testing.assert_array_equal(turned[..., r:], x[..., r:])  # untouched, bit for bit
    np.testing.assert_array_equal(turned[..., :r], apply_rope(x[..., :r], positions, layout=layout))


# ---- axial (2-D) RoPE ----


@pytest.mark.verifies("thm-axial-offset")
@given(d=st.integers(1, 16).map(lambda h: 4 * h), seed=seed, r1=position, c1=position, r2=position, c2=position)
def test_axial_score_is_row_rope_on_one_half_plus_column_rope_on_the_other(d, seed, r1, c1, r2, c2):
    q, k = np.random.default_rng(seed).standard_normal((2, 1, d))
    half = d // 2
    score = axial_rope(q, [r1], [c1])[0] @ axial_rope(k, [r2], [c2])[0]
    by_halves = (q[0, :half] @ rope_matrix(r2 - r1, half) @ k[0, :half]
                 + q[0, half:] @ rope_matrix(c2 - c1, half) @ k[0, half:])
    assert score == pytest.approx(by_halves, abs=1e-13 * d * (1 + abs(r1) + abs(r2) + abs(c1) + abs(c2)))


def qwen2_vl_vision(x: np.ndarray, grid: tuple[int, int], merge: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """transformers' Qwen2-VL vision rotation of ``x`` (one head, shape ``(patches, d)``) for an image of
    ``grid`` patches (in transformers' patch order), and the ``(row, col)`` of each patch."""
    config = Qwen2VLVisionConfig(embed_dim=x.shape[-1], num_heads=1)
    position_ids = get_vision_position_ids(torch.tensor([[1, *grid]]), merge)
    cos, sin = Qwen2VLVisionRotaryEmbedding(config)(torch.from_numpy(x), position_ids)
    turned, _ = apply_rotary_pos_emb_vision(torch.from_numpy(x)[:, None], torch.from_numpy(x)[:, None], cos, sin)
    return turned[:, 0].double().numpy(), position_ids.numpy()


@pytest.mark.parametrize(("d", "grid"), [(80, (4, 6)), (16, (2, 2)), (64, (6, 4))])
def test_qwen2_vl_vision_rotation_in_transformers_is_axial_rope_after_interleaved_to_half(d, grid):
    x = np.random.default_rng(d).standard_normal((grid[0] * grid[1], d))
    p = interleaved_to_half(d)
    theirs, ids = qwen2_vl_vision(x[:, p], grid)
    ours = axial_rope(x, ids[:, 0], ids[:, 1])[:, p]
    np.testing.assert_allclose(theirs, ours, atol=2e-6)  # transformers turns in float32
    assert np.abs(qwen2_vl_vision(x, grid)[0] - axial_rope(x, ids[:, 0], ids[:, 1])).max() > 0.1  # unpermuted


def rope_vit(x: np.ndarray, rows, cols, base: float = 100.0) -> np.ndarray:
    """RoPE-ViT's axial rotation in torch, as its code builds it (``compute_axial_cis``, ``apply_rotary_emb``):
    unit complex numbers of the column's angles, then the row's, multiplying the coordinates read two at a time
    as complex numbers."""
    d = x.shape[-1]
    ladder = 1.0 / base ** (torch.arange(0, d, 4)[: d // 4].double() / d)
    angles = torch.cat([torch.outer(torch.as_tensor(cols).double(), ladder),
                        torch.outer(torch.as_tensor(rows).double(), ladder)], dim=-1)
    pairs = torch.view_as_complex(torch.from_numpy(x).reshape(len(x), -1, 2).contiguous())
    return torch.view_as_real(pairs * torch.polar(torch.ones_like(angles), angles)).reshape(x.shape).numpy()


@pytest.mark.parametrize(("rows", "cols"), [(3, 5), (14, 14)])
def test_rope_vits_rotation_is_axial_rope_after_swapping_the_halves(rows, cols):
    x = np.random.default_rng(2).standard_normal((rows * cols, 64))
    row, col = grid_positions(rows, cols)
    swap = np.r_[32:64, :32]
    np.testing.assert_allclose(rope_vit(x[:, swap], row, col), axial_rope(x, row, col, base=100.0)[:, swap],
                               atol=1e-12)


# ---- M-RoPE ----


@pytest.mark.verifies("thm-mrope-text")
@given(data=st.data(), d=even_d, seed=seed)
def test_mrope_with_three_equal_ids_is_rope_at_those_ids_bit_for_bit(data, d, seed):
    rng = np.random.default_rng(seed)
    x, positions = rng.standard_normal((6, d)), rng.integers(0, 5000, 6)
    np.testing.assert_array_equal(mrope(x, np.tile(positions, (3, 1)), data.draw(section_sizes(d))),
                                  apply_rope(x, positions))


@pytest.mark.parametrize("split", ["sections", "interleaved"])
@given(data=st.data(), d=st.integers(3, 32).map(lambda h: 2 * h), seed=seed,
       shift=st.lists(position, min_size=3, max_size=3))
def test_mrope_scores_depend_only_on_the_3d_offset_of_the_ids(split, data, d, seed, shift):
    sections = data.draw(interleavable_sections(d) if split == "interleaved" else section_sizes(d))
    rng = np.random.default_rng(seed)
    q, k, ids = rng.standard_normal((5, d)), rng.standard_normal((5, d)), rng.integers(0, 100, (3, 5))
    moved = ids + np.array(shift)[:, None]

    def scores(positions):
        return mrope(q, positions, sections, split=split) @ mrope(k, positions, sections, split=split).T

    np.testing.assert_allclose(scores(ids), scores(moved), atol=1e-13 * d * (1 + np.abs(moved).max()))


# ---- kinds and dtypes ----


@pytest.mark.parametrize("dtype", [torch.float64, torch.float32])
def test_torch_and_numpy_agree_and_kinds_and_dtypes_are_kept(dtype):
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 6, 32))
    rows, cols = grid_positions(2, 3)
    ids = rng.integers(0, 50, (3, 6))
    calls = [lambda v: partial_rope(v, rotary_fraction=0.5, layout="half"),
             lambda v: axial_rope(v, rows, cols),
             lambda v: mrope(v, ids, (4, 6, 6)),
             lambda v: mrope(v, ids, (8, 4, 4), split="interleaved")]
    x_numpy = x.astype(np.float32 if dtype == torch.float32 else np.float64)
    for call in calls:
        from_torch, from_numpy = call(torch.tensor(x, dtype=dtype)), call(x_numpy)
        assert isinstance(from_torch, torch.Tensor) and from_torch.dtype == dtype and from_torch.shape == x.shape
        assert isinstance(from_numpy, np.ndarray) and from_numpy.dtype == x_numpy.dtype
        np.testing.assert_allclose(from_torch.numpy(), from_numpy, atol=1e-12 if dtype == torch.float64 else 1e-5)


# ---- how M-RoPE splits the hands among its axes: Qwen2-VL's sections, Qwen3-VL's interleaving ----


def interleavable_sections(d: int):
    """Sections (t, h, w) that the interleaved split accepts: 3h - 2 < d/2 and 3w - 1 < d/2."""
    half = d // 2
    return st.tuples(st.integers(0, (half + 1) // 3), st.integers(0, half // 3)).filter(
        lambda hw: sum(hw) <= half).map(lambda hw: (half - hw[0] - hw[1], hw[0], hw[1]))


def axes_of(rotary, half: int) -> np.ndarray:
    """Which axis each pair takes its angle from in a Qwen rotary module: feed axis a the value a everywhere."""
    freq = torch.arange(3, dtype=torch.float64)[:, None, None, None].expand(3, 1, 1, half).clone()
    return rotary.recomposition_frequencies(freq)[0, 0, :half].long().numpy()


@pytest.mark.verifies("thm-mrope-split")
def test_mrope_axes_are_the_qwen_models_recompositions():
    qwen2 = Qwen2VLRotaryEmbedding(Qwen2VLTextConfig(hidden_size=256, num_attention_heads=2))
    qwen3 = Qwen3VLTextRotaryEmbedding(Qwen3VLTextConfig(hidden_size=256, num_attention_heads=2, head_dim=128))
    np.testing.assert_array_equal(mrope_axes(tuple(qwen2.mrope_section), 128), axes_of(qwen2, 64))
    np.testing.assert_array_equal(mrope_axes(tuple(qwen3.mrope_section), 128, split="interleaved"), axes_of(qwen3, 64))


QWEN_VL = {"sections": (Qwen2VLTextConfig, Qwen2VLRotaryEmbedding, qwen2_vl_rotate),  # the model of each split
           "interleaved": (Qwen3VLTextConfig, Qwen3VLTextRotaryEmbedding, qwen3_vl_rotate)}


@pytest.mark.parametrize(("split", "sections"), [("sections", (16, 24, 24)), ("sections", (4, 2, 2)),
                                               ("interleaved", (24, 20, 20)), ("interleaved", (12, 10, 10)),
                                               ("interleaved", (11, 11, 10)), ("interleaved", (16, 8, 8))])
def test_mrope_is_the_qwen_vl_rotation_in_transformers_on_heads_in_the_half_layout(split, sections):
    d = 2 * sum(sections)
    config_class, rotary, rotate = QWEN_VL[split]
    rope = {"rope_type": "default", "rope_theta": 500000.0, "mrope_section": list(sections),
            "mrope_interleaved": split == "interleaved"}
    config = config_class(hidden_size=2 * d, num_attention_heads=2, head_dim=d, rope_parameters=rope)
    rng = np.random.default_rng(1)
    ids = rng.integers(0, 300, (3, 9))
    x = rng.standard_normal((9, d))
    cos, sin = rotary(config)(torch.zeros(1, dtype=torch.float64), torch.from_numpy(ids)[:, None, :])
    p = interleaved_to_half(d)
    theirs, _ = rotate(torch.from_numpy(x[:, p])[None, None], torch.zeros(1, 1, 9, d), cos, sin)
    atol = 4 * 300 * 2.0**-24 * 4 + 1e-6  # float32 angles of ids up to 300
    np.testing.assert_allclose(mrope(x, ids, sections, base=500000.0, split=split)[:, p], theirs[0, 0].numpy(),
                               atol=atol)


def qwen2_vl_ids(segments) -> np.ndarray:
    """Qwen2-VL's ``get_rope_index`` (transformers) for text runs (ints) and images ((rows, cols) patches)."""
    types = np.concatenate([np.zeros(s, int) if isinstance(s, int) else np.ones(s[0] * s[1], int) for s in segments])
    grids = torch.tensor([[1, *s] for s in segments if not isinstance(s, int)])
    model = SimpleNamespace(config=SimpleNamespace(vision_config=SimpleNamespace(spatial_merge_size=1)),
                            get_vision_position_ids=lambda *a, **k: Qwen2VLModel.get_vision_position_ids(None, *a, **k))
    ids, _ = Qwen2VLModel.get_rope_index(model, torch.zeros(1, len(types), dtype=torch.long),
                                         torch.from_numpy(types)[None], image_grid_thw=grids)
    return ids[:, 0].numpy()


@pytest.mark.parametrize("segments", [[3, (2, 3), 2], [1, (4, 2), 5, (3, 3), 1], [(2, 2), 4], [2, (1, 5)]])
def test_mrope_ids_equal_qwen2_vls_and_text_resumes_after_the_images_largest_id(segments):
    ids = mrope_ids(segments)
    np.testing.assert_array_equal(ids, qwen2_vl_ids(segments))
    if isinstance(segments[-1], int):
        image_ids = ids[:, :-segments[-1]]
        assert np.all(ids[:, -segments[-1]] == image_ids.max() + 1)
