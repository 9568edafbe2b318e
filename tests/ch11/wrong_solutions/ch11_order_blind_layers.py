"""Mistakes in order_blind_layers, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "counts_every_blind_layer": ("every layer that neither rotates nor masks is counted, wherever it sits. Hint: a "
                                 "layer above one that sees the order receives, through the residual connection, "
                                 "outputs that already depend on it: stop counting there.",
                                 {"break": "continue"}),
    "mask_ignored": ("the causal mask is left out. Hint: a causal mask alone breaks permutation equivariance.",
                     {"if rotates or masked:": "if rotates:"}),
    "ones_read_as_nope": ("a 1 in no_rope_layers is read as a NoPE layer. Hint: transformers' no_rope_layers holds 1 "
                          "for a layer that does rotate.",
                          {"if rotates or masked:": "if not rotates or masked:"}),
}
