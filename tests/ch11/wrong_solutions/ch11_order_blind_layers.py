"""Mistakes in order_blind_layers, each the model answer with the changes written here (old text: new text)."""

MISTAKES = {
    "counts_every_blind_layer": ("every layer that neither rotates nor masks is counted, wherever it sits. Hint: a "
                                 "layer above one that sees the order receives, through the residual connection, "
                                 "outputs that already depend on it: stop counting there.",
                                 {"break": "continue"}),
    "length_left_to_zip": ("lists of different lengths pass when a layer that sees the order comes first: zip(strict="
                           "True) raises only once the loop reaches the end. Hint: compare the two lengths before the "
                           "loop.",
                           {"if len(no_rope_layers) != len(causal):": "if False:"}),
    "mask_ignored": ("the causal mask is left out. Hint: a causal mask alone breaks permutation equivariance.",
                     {"if rotates or masked:": "if rotates:"}),
    "ones_read_as_nope": ("a 1 in no_rope_layers is read as a NoPE layer. Hint: transformers' no_rope_layers holds 1 "
                          "for a layer that does rotate.",
                          {"if rotates or masked:": "if not rotates or masked:"}),
}
