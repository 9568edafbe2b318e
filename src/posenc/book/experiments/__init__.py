"""The experiments the chapters run in the build, one module per chapter that has one.

``ch02``: a tiny model with a learned position table, trained briefly, to see which rows training reaches.
``ch09``: five position schemes trained at one length and evaluated at longer ones. Both train the tiny
models of :mod:`posenc.torch_nn`; the training loop is chapter 2's.
"""
