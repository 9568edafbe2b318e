"""Context extension: each scaled ladder against the published formula, written out here in plain arithmetic."""

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from posenc.scaling import (
    dynamic_ntk,
    llama3,
    ntk_aware,
    ntk_aware_base,
    position_interpolation,
    yarn,
    yarn_attention_scale,
)

even_d = st.integers(2, 128).map(lambda h: 2 * h)
factor = st.floats(1.0, 64.0)
base = st.sampled_from([100.0, 10_000.0, 500_000.0, 1_000_000.0])


def ladder(d, base):
    """theta_j = base^(-2j/d), one hand at a time."""
    return [base ** (-2 * j / d) for j in range(d // 2)]


@given(d=even_d, s=factor, b=base)
def test_position_interpolation_divides_every_angle_by_the_factor(d, s, b):
    np.testing.assert_allclose(position_interpolation(d, s, b), [t / s for t in ladder(d, b)], rtol=1e-13)


def test_ntk_aware_base_is_base_times_factor_to_the_d_over_d_minus_2():
    # bloc97's post: alpha = 8 on LLaMA (d = 128, base 10000) gives base 10000 * 8^(128/126)
    assert ntk_aware_base(128, 8, 10_000.0) == pytest.approx(10_000 * 8 ** (128 / 126), rel=1e-15)
    assert ntk_aware_base(128, 8, 10_000.0) == pytest.approx(82_684.8, rel=1e-5)


@given(d=even_d, s=factor, b=base)
def test_ntk_aware_keeps_the_fastest_hand_and_divides_the_slowest_by_exactly_the_factor(d, s, b):
    scaled, theta = ntk_aware(d, s, b), ladder(d, b)
    assert scaled[0] == pytest.approx(1.0, rel=1e-14)
    assert scaled[-1] == pytest.approx(theta[-1] / s, rel=1e-12)
    ratio = scaled / np.array(theta)  # s^(-2j/(d-2)): from 1 down to 1/s, steadily
    np.testing.assert_allclose(ratio, [s ** (-2 * j / (d - 2)) for j in range(d // 2)], rtol=1e-12)


def test_dynamic_ntk_is_the_original_ladder_up_to_the_training_context():
    np.testing.assert_allclose(dynamic_ntk(128, 4096, 4096), ladder(128, 10_000.0), rtol=1e-15)
    np.testing.assert_allclose(dynamic_ntk(128, 100, 4096), ladder(128, 10_000.0), rtol=1e-15)


@given(d=even_d, times=st.floats(1.0, 32.0), b=base)
def test_dynamic_ntk_beyond_the_context_is_ntk_with_factor_length_over_context(d, times, b):
    new_base = b * times ** (d / (d - 2))
    np.testing.assert_allclose(dynamic_ntk(d, times * 4096, 4096, b), ladder(d, new_base), rtol=1e-12)


def test_dynamic_ntk_with_a_factor_follows_the_original_post():
    # alpha_dyn = alpha * L / L0 - (alpha - 1): alpha = 2 at three times the context gives 5
    np.testing.assert_allclose(dynamic_ntk(64, 3 * 2048, 2048, factor=2.0),
                               ladder(64, 10_000.0 * 5 ** (64 / 62)), rtol=1e-12)


def test_yarn_on_llama2_keeps_fast_hands_interpolates_slow_ones_and_ramps_between():
    # the paper's setting: d = 128, base 10000, L0 = 4096, s = 16, alpha = 1, beta = 32
    d, s, context = 128, 16.0, 4096
    expected = []
    for theta in ladder(d, 10_000.0):
        turns = context / (2 * math.pi / theta)
        gamma = 0.0 if turns < 1 else 1.0 if turns > 32 else (turns - 1) / 31
        expected.append((1 - gamma) * theta / s + gamma * theta)
    np.testing.assert_allclose(yarn(d, s, context), expected, rtol=1e-13)


def test_yarn_agrees_with_the_reference_code_outside_its_rounded_correction_range():
    # The authors' code: hand index where a hand makes `turns` turns in L0, floor/ceil-ed outward.
    d, s, context, b = 128, 16.0, 4096, 10_000.0

    def correction_dim(turns):
        return d * math.log(context / (turns * 2 * math.pi)) / (2 * math.log(b))

    low, high = math.floor(correction_dim(32)), math.ceil(correction_dim(1))
    assert (low, high) == (20, 46)
    ratio = yarn(d, s, context, b) / np.array(ladder(d, b))
    np.testing.assert_allclose(ratio[: low + 1], 1.0, rtol=1e-14)
    np.testing.assert_allclose(ratio[high:], 1 / s, rtol=1e-14)


def test_yarn_temperature_is_point_one_log_s_plus_one():
    assert yarn_attention_scale(16) == pytest.approx(0.1 * math.log(16) + 1)
    assert yarn_attention_scale(16) == pytest.approx(1.2772588722)
    assert yarn_attention_scale(1) == 1.0


def meta_llama31(d, factor, low, high, context, b):
    """Meta's reference rule, hand by hand, written from the published description."""
    out = []
    for theta in ladder(d, b):
        wavelength = 2 * math.pi / theta
        if wavelength < context / high:
            out.append(theta)
        elif wavelength > context / low:
            out.append(theta / factor)
        else:
            smooth = (context / wavelength - low) / (high - low)
            out.append((1 - smooth) * theta / factor + smooth * theta)
    return out


def test_llama31_matches_the_reference_rule_with_its_published_settings():
    np.testing.assert_allclose(llama3(128), meta_llama31(128, 8, 1, 4, 8192, 500_000.0), rtol=1e-13)


def test_llama31_keeps_wavelengths_under_2048_and_divides_those_over_8192_by_exactly_8():
    theta = np.array(ladder(128, 500_000.0))
    wavelength = 2 * math.pi / theta
    ratio = llama3(128) / theta
    # by hand: lambda_j < 2048 <=> j < 64 ln(2048 / 2pi) / ln(500000) = 28.2; lambda_j > 8192 <=> j > 34.98
    assert np.sum(wavelength < 2048) == 29 and np.sum(wavelength > 8192) == 29
    np.testing.assert_allclose(ratio[:29], 1.0, rtol=1e-15)
    np.testing.assert_allclose(ratio[35:], 1 / 8, rtol=1e-15)
    assert np.all((ratio[29:35] < 1) & (ratio[29:35] > 1 / 8))


@given(s=factor, low=st.floats(0.5, 2.0), width=st.floats(0.5, 8.0), d=st.integers(8, 128).map(lambda h: 2 * h))
def test_llama31_ratio_falls_smoothly_from_one_to_one_over_the_factor(s, low, width, d):
    ratio = llama3(d, s, low, low + width) / np.array(ladder(d, 500_000.0))
    assert np.all(np.diff(ratio) <= 1e-15)  # never speeds a slower hand up
    assert np.all((ratio <= 1 + 1e-15) & (ratio >= 1 / s - 1e-15))
    np.testing.assert_allclose(llama3(d, s, low, low + width), meta_llama31(d, s, low, low + width, 8192, 500_000.0),
                               rtol=1e-12)
