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
        "by √d it stays near {scaled:.2f} from d = 16 on."
    ),
    "jacobian_alt": (
        "Two curves of the size of the softmax's Jacobian against the dimension "
        "d from 1 to {d}: with raw dot products it falls to {raw:.3f} at "
        "d = {d}, and most queries' scores get almost no gradient; divided by √d "
        "it stays "
        "near {scaled:.2f}."
    ),
    "mask_leave_one_out": "Leave-one-out mask",
    "mask_causal": "Causal mask",
    "mask_padding": "Padding mask",
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
    "score_dot": "qᵀk",
    "score_scaled": "qᵀk / √d",
    "score_bilinear": "qᵀWk",
    "score_additive": "vᵀtanh(Wₐq + Uₐk)",
    "scoring_alt": (
        "Four heatmaps of the attention weights of the same {n_q} queries over "
        "{n_k} keys in {d} dimensions, from four scoring functions. The raw dot "
        "product puts most of each row's weight on one key (the largest "
        "weight is {dot:.2f} on average); divided by √d the weights spread "
        "({scaled:.2f}); the bilinear score with a random W lies between "
        "({bilinear:.2f}); the additive score with random weights is the "
        "flattest ({additive:.2f})."
    ),
    "saturation_table_d": "d",
    "query_gradient_statistic": "‖∂α/∂q‖ (Frobenius norm)",
    "query_gradient_d": "d = {d}",
    "query_gradient_mean_raw": "mean, q·k",
    "query_gradient_mean_scaled": "mean, q·k / √d",
    "query_gradient_median_raw": "median, q·k",
    "query_gradient_median_scaled": "median, q·k / √d",
    "query_gradient_p99_raw": "99th percentile, q·k",
    "query_gradient_p99_scaled": "99th percentile, q·k / √d",
    "saturation_table_std": "std of q·k",
    "saturation_table_top_raw": "largest weight, q·k",
    "saturation_table_top_scaled": "largest weight, q·k / √d",
    "saturation_table_jacobian_raw": "Jacobian norm, q·k",
    "saturation_table_jacobian_scaled": "Jacobian norm, q·k / √d",
    "saturation_table_flat_raw": "queries with Jacobian norm < 10⁻³, q·k",
    "order_inputs": "Inputs",
    "order_plain": "no positions",
    "order_causal": "no positions, causal mask",
    "order_positions": "sinusoidal positions added",
    "order_diff": (
        "largest difference, layer(shuffled X) against shuffled layer(X), "
        "relative to the largest output"
    ),
    "cost_table_n": "Length n",
    "cost_table_mib": "Weights of one head (MiB, float32)",
    "cost_table_softmax": "Multiply-adds, softmax attention (2n²d, d = {d})",
    "cost_table_linear": "Multiply-adds, linear attention (2nd², d = {d})",
    "growth_table_layer": "Layer (one head, d = {d})",
    "growth_table_time": (
        "Measured time grows as (its fitted power of n is less than 0.5 from the "
        "power shown)"
    ),
    "growth_table_work": "Multiply-adds counted",
    "growth_softmax": "softmax attention",
    "growth_linear": "linear attention",
    "layer_tensor": "Tensor",
    "layer_shape": "Shape",
    "layer_inputs": "inputs X (batch, n, d_model)",
    "layer_heads_q": "every head's queries X W_q (batch, h, n, d_k)",
    "layer_weights": "weights (batch, h, n, n)",
    "layer_joined": "the heads side by side (batch, n, h·d_k)",
    "layer_outputs": "outputs, after W_o (batch, n, d_model)",
}
