"""One rule for bad input, across every module: TypeError for the wrong kind, ValueError for a wrong value.

Each case calls a public function with one bad argument and states the error it must raise and the words
its message must contain; every message must start with the name of the function that was called. A
last test makes sure that no public function of an idea module is left out of the table.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest
import torch

from posenc import (
    alibi,
    angle_tables,
    attention,
    checks,
    clock,
    decay,
    decoding,
    fourier,
    geometry,
    latent_attention,
    mixed_layers,
    precision,
    relative,
    rotary,
    rotary_axes,
    scaling,
    scores,
    sinusoidal,
    tensor2tensor,
    torch_nn,
    xpos,
)
from posenc.book.experiments import ch02 as experiment02
from posenc.book.experiments import ch09 as experiment09

IDEA_MODULES = (alibi, angle_tables, attention, clock, decay, decoding, fourier, geometry, latent_attention,
                mixed_layers, precision, relative, rotary, rotary_axes, scaling, scores, sinusoidal, tensor2tensor,
                torch_nn, xpos)
T, V = TypeError, ValueError
X = np.ones((3, 4))
Q2, K2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])

CASES = [
    # sinusoidal
    (sinusoidal.frequencies, (2.5,), {}, T, "d must be an integer, got 2.5"),
    (sinusoidal.frequencies, (True,), {}, T, "d must be an integer"),
    (sinusoidal.frequencies, (7,), {}, V, r"d must be a positive even number .*got d=7"),
    (sinusoidal.frequencies, (0,), {}, V, "got d=0"),
    (sinusoidal.frequencies, (-4,), {}, V, "got d=-4"),
    (sinusoidal.frequencies, (8,), {"base": 1.0}, V, "base must be greater than 1"),
    (sinusoidal.frequencies, (8,), {"base": "10000"}, T, "base must be a real number"),
    (sinusoidal.frequencies, (8,), {"base": np.nan}, V, "base must be finite"),
    (sinusoidal.wavelengths, (7,), {}, V, "d=7"),
    (sinusoidal.sinusoidal_table, (2.0, 8), {}, T, "n_positions must be an integer"),
    (sinusoidal.sinusoidal_table, (-1, 8), {}, V, "n_positions must be at least 0"),
    (sinusoidal.sinusoidal_table, (3, 7), {}, V, "d=7"),
    (sinusoidal.position_vectors, (["a"], 8), {}, T, "positions must hold real numbers"),
    (sinusoidal.position_vectors, ([[0, 1]], 8), {}, V, "positions must be a vector"),
    (sinusoidal.position_vectors, ([np.inf], 8), {}, V, "positions must be finite"),
    (sinusoidal.shift_matrix, ("1", 8), {}, T, "k must be a real number"),
    (sinusoidal.similarity, (0, [1j], 8), {}, T, "q must hold real numbers"),
    (sinusoidal.similarity_from_offset, ([1], 5), {}, V, "d=5"),
    (sinusoidal.similarity_inversions, (8,), {"max_offset": 0}, V, "max_offset must be at least 1"),
    (sinusoidal.added_encoding_score_terms, (np.ones(3), X, X), {}, V, "content must have 2 dimension"),
    (sinusoidal.added_encoding_score_terms, (X, np.ones((5, 4)), np.ones((4, 4))), {}, V, "w_q and w_k"),
    # geometry
    (geometry.rotation_2d, ("a",), {}, T, "angle must hold real numbers"),
    (geometry.rotation_2d, (np.ones((2, 2)),), {}, V, "a number or a vector"),
    (geometry.plane_angle, ([1, 0, 0], [0, 1]), {}, V, "u must be a vector of the plane"),
    (geometry.plane_angle, ([0, 0], [0, 1]), {}, V, "the zero vector has no direction"),
    (geometry.plane_angle, ([1j, 0], [0, 1]), {}, T, "u must hold real numbers"),
    (geometry.block_diagonal_rotation, (np.ones((2, 2)),), {}, V, "angles must have 1 dimension"),
    (geometry.random_orthogonal, (0,), {}, V, "d must be at least 1"),
    (geometry.random_orthogonal, (4,), {"seed": 1.5}, T, "seed must be an integer"),
    (geometry.matrix_powers, (np.ones((2, 3)), 4), {}, V, "a must be a square matrix"),
    (geometry.matrix_powers, (np.eye(2), 0), {}, V, "n_positions must be at least 1"),
    (geometry.offset_deviation, (np.ones((3, 2, 3)),), {}, V, r"maps must have shape \(N, d, d\)"),
    (geometry.offset_deviation, (np.eye(2),), {}, V, "maps must have 3 dimension"),
    (geometry.rotation_form, (np.eye(2) * 1j,), {}, T, "a must hold real numbers"),
    (geometry.rotation_form, (np.eye(2),), {"tol": 0.0}, V, "tol must be greater than 0"),
    # angle tables
    (angle_tables.rotation_angles, ([0, 1], 7), {}, V, "d=7"),
    (angle_tables.rotation_angles, (["a"], 8), {}, T, "positions must hold real numbers"),
    (angle_tables.cos_sin_table, ([0], 8), {"base": 0.5}, V, "base must be greater than 1"),
    # rotary
    (rotary.rope_matrix, (1, 5), {}, V, "d=5"),
    (rotary.rope_matrix, ("1", 4), {}, T, "m must be a real number"),
    (rotary.interleaved_to_half, (3.0,), {}, T, "d must be an integer"),
    (rotary.half_to_interleaved, (5,), {}, V, "d=5"),
    (rotary.interleaved_to_half_rows, (2.5, 4), {}, T, "n_heads must be an integer"),
    (rotary.interleaved_to_half_rows, (0, 4), {}, V, "n_heads must be at least 1"),
    (rotary.interleaved_to_half_rows, (2, 5), {}, V, r"head_dim must be a positive even number .*got head_dim=5"),
    (rotary.interleaved_to_half_rows, (2, 4), {"rotary_dim": 6}, V, "rotary_dim \\(6\\) must be at most"),
    (rotary.interleaved_to_half_rows, (2, 4), {"rotary_dim": 3}, V, "got rotary_dim=3"),
    (rotary.apply_rope, (np.ones((3, 63)),), {}, V,
     re.escape("last dimension must be even (dimensions come in pairs), got d=63")),
    (rotary.apply_rope, (torch.ones(3, 5),), {}, V, "got d=5"),
    (rotary.apply_rope, ([[1.0, 0.0]],), {}, T, "x must be a numpy array or a torch tensor, got list"),
    (rotary.apply_rope, (np.ones(4),), {}, V, re.escape("x must have shape (..., seq, d), got shape (4,)")),
    (rotary.apply_rope, (np.ones((3, 4), dtype=int),), {}, T, "x must hold floating-point numbers"),
    (rotary.apply_rope, (torch.ones(3, 4, dtype=torch.int64),), {}, T, "x must hold floating-point numbers"),
    (rotary.apply_rope, (X,), {"positions": [0, 1]}, V, r"length 3\), got shape \(2,\)"),
    (rotary.apply_rope, (X,), {"positions": ["a", "b", "c"]}, T, "positions must hold real numbers"),
    (rotary.apply_rope, (X,), {"positions": [True, False, True]}, T, "positions must hold real numbers"),
    (rotary.apply_rope, (X,), {"positions": [0, 1, np.nan]}, V, "positions must be finite"),
    (rotary.apply_rope, (X,), {"layout": "rotate_half"}, V, "layout must be one of interleaved, half"),
    (rotary.apply_rope, (X,), {"layout": None}, T, "layout must be a string"),
    (rotary.apply_rope, (X,), {"base": 1}, V, "base must be greater than 1"),
    (rotary.apply_rope, (X,), {"out": np.ones((3, 6))}, V, r"out must have x's shape \(3, 4\), got \(3, 6\)"),
    (rotary.apply_rope, (X,), {"out": np.ones((3, 4), np.float32)}, T, "out must be a ndarray of dtype float64"),
    (rotary.apply_rope, (X,), {"out": torch.ones(3, 4, dtype=torch.float64)}, T, "got Tensor"),
    # rotary axes: partial rotary, 2-D RoPE, M-RoPE
    (rotary_axes.partial_rope, (X,), {"rotary_fraction": 0.25}, V, r"must be even and at least 2, got r=1 \(d=4"),
    (rotary_axes.partial_rope, (np.ones((3, 6)),), {"rotary_fraction": 0.5}, V, "got r=3"),
    (rotary_axes.partial_rope, (X,), {"rotary_fraction": 1.5}, V, "rotary_fraction must be at most 1"),
    (rotary_axes.partial_rope, (X,), {"rotary_fraction": 0.0}, V, "rotary_fraction must be greater than 0"),
    (rotary_axes.partial_rope, (X,), {"rotary_fraction": "half"}, T, "rotary_fraction must be a real number"),
    (rotary_axes.partial_rope, ([[1.0, 0.0]],), {"rotary_fraction": 1.0}, T, "x must be a numpy array or a torch"),
    (rotary_axes.partial_rope, (X,), {"rotary_fraction": 0.5, "positions": [0, 1]}, V, r"length 3\), got shape"),
    (rotary_axes.partial_rope, (X,), {"rotary_fraction": 0.5, "layout": "neox"}, V, "layout must be one of"),
    (rotary_axes.axial_rope, (np.ones((3, 6)), [0, 1, 2], [0, 1, 2]), {}, V, "multiple of 4 .*got d=6"),
    (rotary_axes.axial_rope, (X, [0, 1], [0, 1, 2]), {}, V, r"rows must be a vector .*\(length 3\)"),
    (rotary_axes.axial_rope, (X, [0, 1, 2], None), {}, T, "cols must hold real numbers"),
    (rotary_axes.axial_rope, (X, [0, 1, 2], ["a", "b", "c"]), {}, T, "cols must hold real numbers"),
    (rotary_axes.axial_rope, (np.ones((3, 4), dtype=int), [0, 1, 2], [0, 1, 2]), {}, T, "floating-point"),
    (rotary_axes.axial_rope, (X, [0, 1, 2], [0, 1, 2]), {"base": 1.0}, V, "base must be greater than 1"),
    (rotary_axes.mrope, (X, np.zeros((3, 3)), (1, 1)), {}, V, "sections must be three integers .*got 2"),
    (rotary_axes.mrope, (X, np.zeros((3, 3)), 2), {}, T, "sections must be three integers"),
    (rotary_axes.mrope, (X, np.zeros((3, 3)), (1, 1, 1)), {}, V, r"sections must add up to d/2 = 2 pairs"),
    (rotary_axes.mrope, (X, np.zeros((3, 3)), (1, 0.5, 0.5)), {}, T, r"sections\[1\] must be an integer"),
    (rotary_axes.mrope, (X, np.zeros((3, 3)), (2, -1, 1)), {}, V, r"sections\[1\] must be at least 0"),
    (rotary_axes.mrope, (X, np.zeros((2, 3)), (1, 1, 0)), {}, V, r"positions must have shape \(3, seq\)"),
    # chapter 11: LongRoPE, mixed stacks, interleaved M-RoPE, latent attention
    (rotary_axes.mrope, (X, np.zeros((3, 3)), (1, 1, 0)), {"split": "thw"}, V, "split must be one of sections"),
    (rotary_axes.mrope_axes, ((0, 2, 0), 4), {"split": "interleaved"}, V, "interleaving needs 3 . sections"),
    (rotary_axes.mrope_axes, ((1, 1), 4), {}, V, "sections must be three integers"),
    (rotary_axes.mrope_axes, ((1, 1, 0), 5), {}, V, "d=5"),
    (scaling.longrope, (4, [1.0, 2.0], [1.0], 100, 64), {}, V, "long_factor must hold d/2 = 2 positive numbers"),
    (scaling.longrope, (4, [1.0, 0.0], [1.0, 2.0], 10, 64), {}, V, "short_factor must hold d/2 = 2 positive"),
    (scaling.longrope, (4, ["a", "b"], [1.0, 2.0], 10, 64), {}, T, "short_factor must hold real numbers"),
    (scaling.longrope, (4, [1.0, 1.0], [1.0, 1.0], "10", 64), {}, T, "seq_len must be a real number"),
    (scaling.longrope, (5, [1.0, 1.0], [1.0, 1.0], 10, 64), {}, V, "d=5"),
    (scaling.longrope_attention_scale, (0.5, 4096), {}, V, "factor must be at least 1"),
    (scaling.longrope_attention_scale, (32, 1), {}, V, "original_context must be greater than 1"),
    (mixed_layers.every_nth_layer, (0, 4), {}, V, "n_layers must be at least 1"),
    (mixed_layers.every_nth_layer, (48, 4.0), {}, T, "n must be an integer"),
    (mixed_layers.nope_temperature, ([-1],), {}, V, "positions must be at least 0"),
    (mixed_layers.nope_temperature, ([1],), {"floor_scale": 0}, V, "floor_scale must be greater than 0"),
    (mixed_layers.nope_temperature, (["a"],), {}, T, "positions must hold real numbers"),
    (mixed_layers.window_mask, (4, 0), {}, V, "window must be at least 1"),
    (mixed_layers.window_mask, (4.5, 2), {}, T, "n must be an integer"),
    (mixed_layers.chunk_mask, (4, 2.0), {}, T, "chunk must be an integer"),
    (mixed_layers.chunk_mask, (-1, 2), {}, V, "n must be at least 0"),
    (latent_attention.mla_scores, (np.ones((1, 2, 3)), np.ones((1, 2, 4)), np.ones((2, 5)), np.ones((2, 4)),
                                   np.ones((1, 3, 6))), {}, V, r"w_uk must have shape \(heads, d_nope, d_lat\)"),
    (latent_attention.mla_scores, (np.ones((1, 2, 3)), np.ones((1, 2, 4)), np.ones((3, 5)), np.ones((2, 4)),
                                   np.ones((1, 3, 5))), {}, V, "q_rope must have shape"),
    (latent_attention.mla_scores, (np.ones((1, 2, 3)), np.ones((1, 2, 3)), np.ones((2, 5)), np.ones((2, 3)),
                                   np.ones((1, 3, 5))), {}, V, r"d_rope must be a positive even .*got d_rope=3"),
    (latent_attention.mla_scores, (np.ones((2, 3)), np.ones((1, 2, 4)), np.ones((2, 5)), np.ones((2, 4)),
                                   np.ones((1, 3, 5))), {}, V, "q_nope must have 3 dimension"),
    (latent_attention.mla_scores, (np.ones((1, 2, 3)), np.ones((1, 2, 4)), np.ones((2, 5)), ["a"],
                                   np.ones((1, 3, 5))), {}, T, "k_rope must hold real numbers"),
    (rotary_axes.mrope, (X, np.zeros(3), (1, 1, 0)), {}, V, "positions must have 2 dimension"),
    (rotary_axes.mrope, (X, np.full((3, 3), np.nan), (1, 1, 0)), {}, V, "positions must be finite"),
    (rotary_axes.mrope, (np.ones((3, 5)), np.zeros((3, 3)), (1, 1, 0)), {}, V, "got d=5"),
    (rotary_axes.mrope, (torch.ones(3, 4), np.zeros((3, 3)), (1, 1, 0)), {"base": "e"}, T, "base must be a real"),
    (rotary_axes.grid_positions, (0, 4), {}, V, "height must be at least 1"),
    (rotary_axes.grid_positions, (2, 2.0), {}, T, "width must be an integer"),
    (rotary_axes.grid_offset_deviation, (np.ones((2, 3)), [0, 1], [0, 1]), {}, V, "s must be a square matrix"),
    (rotary_axes.grid_offset_deviation, (np.ones((2, 2)), [0, 1], [0]), {}, V, "cols must be a vector"),
    # relative positions in the score: Shaw, Transformer-XL, T5; xPos; tensor2tensor's table
    (relative.offsets, (2.5,), {}, T, "n_queries must be an integer"),
    (relative.offsets, (2, -1), {}, V, "n_keys must be at least 0"),
    (relative.clipped_offsets, (4, 0), {}, V, "max_offset must be at least 1"),
    (relative.clipped_offsets, ("4", 1), {}, T, "n_positions must be an integer"),
    (relative.shaw_scores, (X, X, np.ones((2, 4))), {}, V, r"a table of shape \(2K \+ 1, d\)"),
    (relative.shaw_scores, (X, np.ones((3, 5)), np.ones((3, 4))), {}, V, "need q and k of one shape"),
    (relative.shaw_scores, (X, X, [["a"]]), {}, T, "table must hold real numbers"),
    (relative.transformer_xl_terms, (X, X, X, X, np.ones(2), np.ones(2)), {}, V, r"need x \(N, d_model\)"),
    (relative.transformer_xl_terms, (X, np.ones((2, 4)), np.ones((2, 4)), np.ones((2, 4)), np.ones(2), [1j, 0]),
     {}, T, "v must hold real numbers"),
    (relative.t5_bucket, ([0.5],), {}, V, "relative_position must hold whole numbers"),
    (relative.t5_bucket, (["a"],), {}, T, "relative_position must hold real numbers"),
    (relative.t5_bucket, ([1],), {"bidirectional": 1}, T, "bidirectional must be True or False"),
    (relative.t5_bucket, ([1],), {"num_buckets": 2}, V, "num_buckets must be at least 4"),
    (relative.t5_bucket, ([1],), {"max_distance": 8}, V, "max_distance must exceed the 8 exact buckets"),
    (relative.t5_bucket, ([1],), {"max_distance": 8.0}, T, "max_distance must be an integer"),
    (relative.t5_bias, (4, np.ones(8)), {}, V, r"one entry per bucket \(32\), got 8"),
    (relative.t5_bias, (0, np.ones(32)), {}, V, "n_positions must be at least 1"),
    (xpos.xpos_zeta, (5,), {}, V, "d=5"),
    (xpos.xpos_zeta, (8,), {"gamma": 0.0}, V, "gamma must be greater than 0"),
    (xpos.xpos_scale, ([0, 1], 8), {"role": "value"}, V, "role must be one of query, key"),
    (xpos.xpos_scale, ([0, 1], 8), {"scale_base": "512"}, T, "scale_base must be a real number"),
    (xpos.xpos_scale, ([[0, 1]], 8), {}, V, "positions must be a vector"),
    (xpos.xpos, (X,), {"role": None}, T, "role must be a string"),
    (xpos.xpos, (np.ones((3, 5)),), {}, V, "d=5"),
    (xpos.xpos, (X.tolist(),), {}, T, "x must be a numpy array, got list"),
    (xpos.xpos, (X,), {"positions": [0, 1]}, V, r"length 3\), got shape"),
    (xpos.xpos, (X,), {"base": 1.0}, V, "base must be greater than 1"),
    (tensor2tensor.timing_frequencies, (7,), {}, V, "d=7"),
    (tensor2tensor.timing_frequencies, (8, 1.0), {}, V, "max_timescale must be greater than 1"),
    (tensor2tensor.timing_signal, (2.0, 8), {}, T, "n_positions must be an integer"),
    (tensor2tensor.timing_signal, (2, 8, "1e4"), {}, T, "max_timescale must be a real number"),
    # clock
    (clock.hand_periods, (7,), {}, V, "d=7"),
    (clock.wrapped_angles, ([1, 2], 0.0), {}, V, "theta must be a positive number"),
    (clock.wrapped_angles, ([1, np.inf], 1.0), {}, V, "positions must be finite"),
    (clock.wrapped_angles, (np.ones((2, 2)), 1.0), {}, V, "positions must be a vector"),
    (clock.wrapped_angles, (["a"], 1.0), {}, T, "positions must hold real numbers"),
    (clock.angular_distance, (np.nan, 0.0), {}, V, "a must be finite"),
    (clock.angular_distance, ("a", 0.0), {}, T, "a must hold real numbers"),
    (clock.first_near_collision, (1.0, -0.1, 10), {}, V, "tolerance must be greater than 0"),
    (clock.first_near_collision, (1.0, 0.1, 0), {}, V, "max_offset must be at least 1"),
    (clock.first_near_collision, (1.0, 0.1, 10.5), {}, T, "max_offset must be an integer"),
    (clock.first_near_collision, (True, 0.1, 10), {}, T, "theta must be a real number"),
    (clock.clock_distance, (0, 1, 7), {}, V, "d=7"),
    (clock.clock_distance, ("a", 1, 8), {}, T, "m must hold real numbers"),
    (clock.offset_distance, ([1], 8), {"base": 1}, V, "base must be greater than 1"),
    (clock.min_separation, (64,), {"n_positions": 1}, V, "n_positions must be at least 2"),
    (clock.min_separation, (64,), {"n_positions": 2.0}, T, "n_positions must be an integer"),
    # scaling
    (scaling.position_interpolation, (64, 0.5), {}, V, "factor must be at least 1"),
    (scaling.position_interpolation, (64, "2"), {}, T, "factor must be a real number"),
    (scaling.ntk_aware, (2, 4.0), {}, V, "d must be at least 4"),
    (scaling.ntk_aware_base, (7, 2.0), {}, V, "d=7"),
    (scaling.dynamic_ntk, (64, "long", 4096), {}, T, "seq_len must be a real number"),
    (scaling.dynamic_ntk, (64, 8192, 0), {}, V, "original_context must be greater than 0"),
    (scaling.dynamic_ntk, (2, 8192, 4096), {}, V, "d must be at least 4"),
    (scaling.yarn, (64, 4.0, 4096), {"alpha": 32, "beta": 1}, V, "the ramp needs 0 < alpha < beta"),
    (scaling.yarn, (64, 4.0, 4096), {"alpha": None}, T, "alpha must be a real number"),
    (scaling.yarn, (63, 4.0, 4096), {}, V, "d=63"),
    (scaling.yarn_attention_scale, (0.5,), {}, V, "factor must be at least 1"),
    (scaling.yarn_correction_range, (63, 4096), {}, V, "d=63"),
    (scaling.yarn_correction_range, (64, 4096), {"beta_fast": 1.0, "beta_slow": 2.0}, V, "need beta_slow < beta_fast"),
    (scaling.yarn_correction_range, (64, "4k"), {}, T, "original_context must be a real number"),
    (scaling.yarn_reference, (64, 0.5, 4096), {}, V, "factor must be at least 1"),
    (scaling.yarn_reference, (64, 4.0, 4096), {"base": 1.0}, V, "base must be greater than 1"),
    (scaling.llama3, (64,), {"original_context": -1}, V, "original_context must be greater than 0"),
    (scaling.llama3, (64,), {"low_freq_factor": 4.0}, V, "0 < low_freq_factor < high_freq_factor"),
    # alibi
    (alibi.alibi_slopes, (2.5,), {}, T, "n_heads must be an integer, got 2.5"),
    (alibi.alibi_slopes, (0,), {}, V, "n_heads must be at least 1"),
    (alibi.alibi_bias, (0, [0.5]), {}, V, "n_positions must be at least 1"),
    (alibi.alibi_bias, (4.0, [0.5]), {}, T, "n_positions must be an integer"),
    (alibi.alibi_bias, (4, [[0.5]]), {}, V, "slopes must be a vector"),
    (alibi.alibi_bias, (4, ["a"]), {}, T, "slopes must hold real numbers"),
    # attention
    (attention.softmax, (["a"],), {}, T, "scores must hold real numbers"),
    (attention.softmax, ([1.0],), {"axis": 0.5}, T, "axis must be an integer"),
    (attention.attention_weights, (np.ones((2, 3)), np.ones((2, 4))), {}, V, "same width, got 3 and 4"),
    (attention.attention_weights, (np.ones(3), np.ones((2, 3))), {}, V, "q must have at least 2 dimension"),
    (attention.attention, (np.ones((2, 3)), np.ones((2, 3)), np.ones((3, 4))), {}, V, "one value per key"),
    (attention.attention, (np.ones((2, 3)),) * 3, {"mask": np.ones((2, 2))}, T, "mask must be a boolean array"),
    (attention.self_attention, (np.ones((2, 3)), np.ones((4, 2)), np.ones((3, 2)), np.ones((3, 2))), {}, V,
     "the weights need 3 rows"),
    (attention.permutation_matrix, ([0, 0, 1],), {}, V, "permutation of 0..2"),
    (attention.permutation_matrix, ([0.0, 1.0],), {}, T, "order must hold integers"),
    (attention.causal_mask, (2.5,), {}, T, "n must be an integer"),
    (attention.causal_mask, (-1,), {}, V, "n must be at least 0"),
    # scores
    (scores.score_matrix, (np.ones((2, 3)), np.ones((2, 4))), {}, V, "same width"),
    (scores.rope_scores, (np.ones((2, 3)), np.ones((2, 3))), {}, V, "d=3"),
    (scores.repeated_token_scores, (np.ones(4), np.ones(4), 2.5), {}, T, "n must be an integer"),
    (scores.toeplitz_deviation, (np.ones(3),), {}, V, "s must have 2 dimension"),
    (scores.circulant_deviation, (np.ones((2, 3)),), {}, V, "s must be a square matrix"),
    (scores.toeplitz, ([1, 2], [[1]]), {}, V, "first_row must have 1 dimension"),
    (scores.circulant, (["a"],), {}, T, "first_row must hold real numbers"),
    (scores.shifted_pair_scores, (np.ones(4), np.ones(4), "0", 1, [0]), {}, T, "m must be a real number"),
    (scores.additive_pair_scores, (np.ones(4), np.ones(4), 0, 1, [np.nan]), {}, V, "shifts must be finite"),
    (scores.plane_scores, ([1, 0, 0], K2, 4, 0.5), {}, V, "q must be a vector of the plane"),
    (scores.plane_scores, (Q2, K2, 4.5, 0.5), {}, T, "n_positions must be an integer"),
    (scores.plane_score_from_offset, (Q2, K2, [0], "x"), {}, T, "theta must be a real number"),
    # decoding
    (decoding.cached_decoding_scores, (X, np.ones((2, 4))), {}, V, "must both have shape"),
    (decoding.cached_decoding_scores, (np.ones(4), np.ones(4)), {}, V, "q must have 2 dimension"),
    (decoding.positions_from_mask, ([[0, 2, 1]],), {}, V, "0s and 1s"),
    (decoding.positions_from_mask, (["a"],), {}, T, "mask must hold real numbers"),
    (decoding.positions_from_mask, (1,), {}, V, "mask must have at least 1 dimension"),
    # precision
    (precision.round_to, ([1.0], "int8"), {}, V, "dtype must be one of bfloat16, float16, float32, float64"),
    (precision.round_to, ([1.0], np.float16), {}, T, "dtype must be a string"),
    (precision.round_to, (["a"], "float16"), {}, T, "values must hold real numbers"),
    (precision.angles_in_precision, ([0], 7, 1e4, "float32"), {}, V, "d=7"),
    (precision.angles_in_precision, ([0], 8, 1e4, "int8"), {}, V, "dtype must be one of"),
    # decay
    (decay.rope_partial_sums, ([1], 7), {}, V, "d=7"),
    (decay.long_term_decay_bound, (["a"], 8), {}, T, "distances must hold real numbers"),
    (decay.long_term_decay_octaves, (8,), {"octaves": 0}, V, "octaves must be at least 1"),
    (decay.long_term_decay_octaves, (8,), {"samples": 2.5}, T, "samples must be an integer"),
    (decay.random_walk_level, (7,), {}, V, "d=7"),
    # torch_nn
    (experiment02.lagged_copy_batch, (2, 8, 4, 8, torch.Generator()), {}, V, "lag must be shorter than the sequence"),
    (experiment02.lagged_copy_batch, (2, 8.0, 4, 1, torch.Generator()), {}, T, "length must be an integer"),
    (experiment02.train_briefly, (), {"n_positions": 16, "train_length": 17}, V,
     "train_length must be between 1 and n_positions=16, got 17"),
    (experiment02.train_briefly, (), {"train_length": 8.5}, T, "train_length must be an integer"),
    # chapter 9's experiment: RoPE with an explicit ladder, the copy task, the models' training and scores
    (rotary.rope_with_ladder, ([[1.0, 0.0]], [1.0]), {}, T, "x must be a numpy array or a torch tensor"),
    (rotary.rope_with_ladder, (X, [1.0]), {}, V, "frequencies must have d/2 = 2 entries"),
    (torch_nn.with_ladder, (torch_nn.TinyModel(5, 8, position="none"), [1.0]), {}, V, "only a RoPE model"),
    (experiment02.fit, (torch.nn.Linear(2, 2), None, -1), {}, V, "steps must be at least 0"),
    (experiment02.fit, (torch.nn.Linear(2, 2), None, 2.5), {}, T, "steps must be an integer"),
    (experiment09.copy_batch, (2, 9, 5, torch.Generator()), {}, V, "length must be even"),
    (experiment09.copy_batch, (2, 8, 5.0, torch.Generator()), {}, T, "vocab must be an integer"),
    (experiment09.accuracy, (None, torch.zeros(2, 4), torch.zeros(2, 4)), {}, T, "tokens must be an integer tensor"),
    (experiment09.order_blind, (torch.zeros(2, 4, dtype=torch.long), torch.zeros(2, 6, dtype=torch.long)), {}, V,
     r"tokens and targets must have one shape \(batch, seq\), got \(2, 4\) and \(2, 6\)"),
    (experiment09.run_experiment, (), {"train_length": 1}, V, "train_length must be at least 2"),
    (experiment09.run_experiment, (), {"lengths": (32, 64.0)}, T, "lengths must be an integer"),
    # chapter 6, weights and the Fourier view
    (scores.offset_scores, (np.ones(4), np.ones(6), [0]), {}, V, "same shape"),
    (scores.offset_scores, (np.ones(3), np.ones(3), [0]), {}, V, "d=3"),
    (scores.last_query_weights, (np.ones(4), np.ones(4), 0), {}, V, "n_positions must be at least 1"),
    (fourier.pairs_as_complex, ([1.0, 2.0, 3.0],), {}, V, "d=3"),
    (fourier.offset_coefficients, (np.ones(4), np.ones(2)), {}, V, "same shape"),
    (fourier.trig_polynomial, (["a"], [0], [1.0]), {}, T, "h must hold real or complex numbers"),
    (fourier.trig_polynomial, ([1, 2], [0], [1.0]), {}, V, "h and theta must have the same shape"),
    (fourier.pair_for_coefficients, ([[1j]],), {}, V, "h must be a finite vector"),
    (fourier.fit_coefficients, ([0, 1], [1.0], [1.0]), {}, V, "one value per offset"),
    (fourier.fit_coefficients, ([0], [1.0], [1.0]), {"rcond": "x"}, T, "rcond must be a real number"),
    (fourier.dft_matrix, (0,), {}, V, "n must be at least 1"),
    (fourier.circulant_eigenvalues, ([[1.0]],), {}, V, "c must be a vector"),
]


def _case_id(case) -> str:
    function, _, _, error, message = case
    return f"{function.__name__}-{error.__name__}-{message[:30]}"


@pytest.mark.parametrize("case", CASES, ids=[_case_id(case) for case in CASES])
def test_bad_input_gets_the_rules_error_with_a_message_that_names_function_and_problem(case):
    function, args, kwargs, error, message = case
    with pytest.raises(error) as raised:
        function(*args, **kwargs)
    assert type(raised.value) is error  # not a subclass standing in for the other kind
    assert str(raised.value).startswith(f"{function.__name__}: "), str(raised.value)
    assert re.search(message, str(raised.value)), str(raised.value)


def _public_functions(module):
    return {obj for name, obj in vars(module).items()
            if inspect.isfunction(obj) and obj.__module__ == module.__name__ and not name.startswith("_")}


def test_every_public_function_of_every_idea_module_is_in_the_table():
    covered = {case[0] for case in CASES}
    missing = sorted(f"{f.__module__}.{f.__name__}" for m in IDEA_MODULES for f in _public_functions(m) - covered)
    assert not missing, f"no bad-input case for: {missing}"


@pytest.mark.parametrize(
    ("check", "value", "error"),
    [
        (lambda v: checks.integer(v, "n", "f"), 2.5, T),
        (lambda v: checks.integer(v, "n", "f"), np.int64(3), None),
        (lambda v: checks.integer(v, "n", "f", minimum=1), 0, V),
        (lambda v: checks.even_dimension(v, "f"), np.int32(6), None),
        (lambda v: checks.real(v, "x", "f"), np.float32(0.5), None),
        (lambda v: checks.real(v, "x", "f"), 1 + 0j, T),
        (lambda v: checks.real(v, "x", "f"), np.inf, V),
        (lambda v: checks.real_array(v, "x", "f"), torch.ones(2), None),
        (lambda v: checks.real_array(v, "x", "f"), [[1, 2], [3]], V),
        (lambda v: checks.real_array(v, "x", "f"), np.array([None]), T),
        (lambda v: checks.option(v, ("a", "b"), "mode", "f"), "b", None),
    ],
)
def test_the_checks_apply_the_rule_and_return_what_functions_compute_with(check, value, error):
    if error is None:
        check(value)
    else:
        with pytest.raises(error, match="^f: "):
            check(value)


def test_checks_return_plain_python_numbers_and_float64_arrays():
    assert type(checks.integer(np.int64(3), "n", "f")) is int
    assert type(checks.real(np.float32(0.5), "x", "f")) is float
    assert checks.real_array([1, 2], "x", "f").dtype == np.float64
    np.testing.assert_array_equal(checks.positions(None, 3, "f"), [0.0, 1.0, 2.0])
