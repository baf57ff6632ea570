"""The figures of the chapter on the attention layer."""

LABELS: dict[str, str] = {
    "scores_raw": "q·k",
    "scores_scaled": "q·k / √d",
    "dimension_d": "Dimension d",
    "top_weight": "Largest weight (mean)",
    "jacobian_norm": "Softmax Jacobian, Frobenius norm (mean)",
    "top_alt": (
        "Two curves of the mean largest attention weight of a random query over "
        "10 random keys, against the dimension d from 1 to {d}: with raw dot "
        "products it climbs towards 1, reaching {raw:.2f} at d = {d}; divided "
        "by √d it stays near {scaled:.2f}."
    ),
    "jacobian_alt": (
        "Two curves of the size of the softmax's Jacobian against the dimension "
        "d from 1 to {d}: with raw dot products it falls to {raw:.3f} at "
        "d = {d}, so little gradient reaches the scores; divided by √d it stays "
        "near {scaled:.2f}."
    ),
    "mask_leave_one_out": "Leave-one-out",
    "mask_causal": "Causal",
    "mask_padding": "Padding",
    "masks_alt": (
        "Three heatmaps of the weights of the same {n} by {n} scores under "
        "three masks. Leave-one-out: every weight but the diagonal's. Causal: "
        "the diagonal and the weights left of it, none above. Padding: the "
        "first {valid} keys in every row, none for the padded ones."
    ),
    "encoding_dimension": "Encoding dimension",
    "position": "Position",
    "positions_alt": (
        "Heatmap of the sinusoidal positional encodings of {n} positions in "
        "{d} dimensions: the first columns alternate quickly from row to row, "
        "later columns ever more slowly."
    ),
}
