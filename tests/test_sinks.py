"""Attention sinks: the weights with a sink logit against the softmax over the longer row, and StreamingLLM's
cache against its definition. (GPT-OSS's attention is compared in tests/ch12/test_ch12.py.)"""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from posenc.attention import softmax
from posenc.sinks import sink_weights, streaming_cache

LOGITS = st.floats(-30, 30)


@given(scores=arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 9)), elements=LOGITS),
       sink=st.floats(-30, 30))
def test_sink_weights_are_the_softmax_over_the_longer_row_without_its_last_column(scores, sink):
    longer = np.concatenate([scores, np.full((len(scores), 1), sink)], axis=1)
    np.testing.assert_allclose(sink_weights(scores, sink), softmax(longer)[:, :-1], rtol=1e-12, atol=1e-300)


def test_a_masked_key_gets_no_weight_and_sinks_broadcast_per_head():
    scores = np.array([[[0.0, -np.inf]], [[1.0, 2.0]]])  # two heads, one query, two keys
    weights = sink_weights(scores, np.array([[0.0], [5.0]]))
    assert weights[0, 0, 1] == 0 and weights[0, 0, 0] == 0.5
    assert weights.shape == (2, 1, 2) and weights[1].sum() < 0.1


@given(n_tokens=st.integers(0, 300), n_sink=st.integers(0, 8), window=st.integers(1, 64))
def test_the_cache_holds_the_first_and_the_last_tokens_at_consecutive_positions(n_tokens, n_sink, window):
    kept, positions = streaming_cache(n_tokens, n_sink, window)
    expected = sorted(set(range(min(n_sink, n_tokens))) | set(range(max(n_tokens - window, 0), n_tokens)))
    assert kept.tolist() == expected
    assert positions.tolist() == list(range(len(kept)))
