"""What students trip on gets a clear error: TypeError for the wrong kind of thing, ValueError for a wrong value.

Each row calls a public function the way a student's first attempt often does (an odd width, a list where an
array goes, integer arrays, a misspelt option, positions of the wrong length) and states the error and the
words its message must hold; every message starts with the name of the function that was called. Each public
function validates its arguments where it enters the API with :mod:`posenc.validation`, so one row per way a
validator refuses is enough; what the validators return is tested once, below.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
import torch

from posenc import attention, mixed_layers, rotary, rotary_axes, scaling, scores, sinusoidal, validation

T, V = TypeError, ValueError
X = np.ones((3, 4))

TRIPS = [
    # an odd width: dimensions come in pairs
    (sinusoidal.frequencies, (7,), {}, V, r"d must be a positive even number .*got d=7"),
    (rotary.apply_rope, (np.ones((3, 63)),), {}, V,
     re.escape("last dimension must be even (dimensions come in pairs), got d=63")),
    (rotary_axes.partial_rope, (X,), {"rotary_fraction": 0.25}, V, r"must be even and at least 2, got r=1 \(d=4"),
    # a float or a bool where a count goes, a count of 0
    (sinusoidal.frequencies, (2.5,), {}, T, "d must be an integer, got 2.5"),
    (sinusoidal.frequencies, (True,), {}, T, "d must be an integer"),
    (mixed_layers.window_mask, (8, 0), {}, V, "window must be at least 1, got window=0"),
    # a list, a vector or integers where a float array of shape (..., seq, d) goes
    (rotary.apply_rope, ([[1.0, 0.0]],), {}, T, "x must be a numpy array or a torch tensor, got list"),
    (rotary.apply_rope, (np.ones(4),), {}, V, re.escape("x must have shape (..., seq, d), got shape (4,)")),
    (rotary.apply_rope, (np.ones((3, 4), dtype=int),), {}, T, "x must hold floating-point numbers"),
    (rotary.apply_rope, (torch.ones(3, 4, dtype=torch.int64),), {}, T, "x must hold floating-point numbers"),
    # positions: the wrong length, bools, nan
    (rotary.apply_rope, (X,), {"positions": [0, 1]}, V, r"length 3\), got shape \(2,\)"),
    (rotary.apply_rope, (X,), {"positions": [True, False, True]}, T, "positions must hold real numbers"),
    (rotary.apply_rope, (X,), {"positions": [0, 1, np.nan]}, V, "positions must be finite"),
    (sinusoidal.position_vectors, ([[0, 1]], 8), {}, V, "positions must be a vector"),
    # a misspelt option, a base or factor out of range
    (rotary.apply_rope, (X,), {"layout": "rotate_half"}, V, "layout must be one of interleaved, half"),
    (rotary.apply_rope, (X,), {"base": 1}, V, "base must be greater than 1"),
    (sinusoidal.frequencies, (8,), {"base": "10000"}, T, "base must be a real number"),
    (sinusoidal.frequencies, (8,), {"base": np.nan}, V, "base must be finite"),
    (scaling.position_interpolation, (64, 0.5), {}, V, "factor must be at least 1"),
    (scaling.yarn, (64, 4.0, 4096), {"alpha": 32, "beta": 1}, V, "the ramp needs 0 < alpha < beta"),
    # shapes that do not fit together
    (scores.score_matrix, (np.ones((3, 4)), np.ones((3, 5))), {}, V,
     "queries and keys must have the same width, got 4 and 5"),
    (attention.softmax, (["a"],), {}, T, "scores must hold real numbers"),
    (attention.softmax, ([[1.0, 2.0], [3.0]],), {}, V, "scores must be a rectangular array"),
    (rotary.apply_rope, (X,), {"out": np.ones((3, 6))}, V, r"out must have x's shape \(3, 4\), got \(3, 6\)"),
]


@pytest.mark.parametrize("case", TRIPS, ids=lambda case: f"{case[0].__name__}-{case[3].__name__}-{case[4][:24]}")
def test_a_students_slip_gets_the_rules_error_with_a_message_that_names_function_and_problem(case):
    function, args, kwargs, error, message = case
    with pytest.raises(error) as raised:
        function(*args, **kwargs)
    assert type(raised.value) is error  # not a subclass standing in for the other kind
    assert str(raised.value).startswith(f"{function.__name__}: "), str(raised.value)
    assert re.search(message, str(raised.value)), str(raised.value)


def test_validators_return_plain_python_numbers_and_float64_arrays():
    assert type(validation.integer(np.int64(3), "n", "f")) is int
    assert type(validation.real(np.float32(0.5), "x", "f")) is float
    assert validation.real_array([1, 2], "x", "f").dtype == np.float64
    assert validation.real_array(torch.ones(2), "x", "f").dtype == np.float64
    np.testing.assert_array_equal(validation.positions(None, 3, "f"), [0.0, 1.0, 2.0])
