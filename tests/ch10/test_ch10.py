"""Chapter 10, *The family*: the M-RoPE ids of its module (posenc.book.ch10) against Qwen2-VL's in transformers."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest
import torch
from transformers.models.qwen2_vl.modeling_qwen2_vl import Qwen2VLModel

from posenc.book.ch10 import mrope_ids


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
