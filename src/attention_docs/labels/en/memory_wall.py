"""The figure and tables of the chapter on the memory wall."""

LABELS: dict[str, str] = {
    "memory_length": "Length n",
    "memory_peak": "Peak memory (MiB)",
    "memory_weights": "n × n weights alone",
    "memory_full": "softmax attention",
    "memory_tiled": "tiled attention",
    "memory_linear": "causal linear attention",
    "memory_alt": (
        "Four lines of peak memory against the length n, both on logarithmic "
        "scales. The n × n weights alone and the library's softmax attention "
        "grow as n²; at n = 2048 the layer holds {full:.3g} MiB at its peak, "
        "against {weights:.0f} MiB for the weights. Tiled attention and causal "
        "linear attention grow as n: {tiled:.3g} and {linear:.3g} MiB at n = 2048."
    ),
    "memory_table_length": "Length n",
    "memory_table_weights": "n × n weights alone (MiB)",
    "memory_table_full": "softmax attention, peak (MiB)",
    "memory_table_tiled": "tiled attention, peak (MiB)",
    "memory_table_linear": "causal linear attention, peak (MiB)",
    "online_key": "Key j",
    "online_scores": "Score sⱼ",
    "online_values": "Value vⱼ",
    "online_table_keys": "Keys seen",
    "online_table_maximum": "Running maximum m",
    "online_table_total": "Running sum ℓ = Σ exp(sⱼ − m)",
    "online_table_estimate": "Estimate (ratio of the two sums)",
    "online_at_once": "softmax over all keys at once",
    "traffic_table_step": "Step (n = {n}, d = {d}, 16-bit numbers)",
    "traffic_table_work": "Multiply-adds",
    "traffic_table_moved": "Bytes moved (MiB)",
    "traffic_table_intensity": "Multiply-adds per byte",
    "traffic_scores": "scores S = QKᵀ/√d",
    "traffic_softmax": "weights P = softmax(S)",
    "traffic_pooling": "outputs O = PV",
    "traffic_materialised": "all three, S and P through memory",
    "traffic_tiled": "tiled, tiles of {block} queries",
    "backward_table_layer": "One head, n = {n}, d = {d}, 32-bit",
    "backward_table_kept": "Kept for the backward pass (MiB)",
    "backward_full": "softmax attention, written out (the library's layer)",
    "backward_tiled": "tiled attention (inputs, outputs, one log-sum-exp per query)",
    "decode_table_kind": (
        "Attention ({layers} layers, {heads} query heads of {head_dim})"
    ),
    "decode_table_cache": "Cache of {n} positions, all {layers} layers (GiB, 16-bit)",
    "decode_table_work": "One token, one layer: multiply-adds",
    "decode_table_moved": "One token, one layer: cache read (MiB)",
    "decode_table_intensity": "Multiply-adds per byte",
    "decode_kind_0": "multi-head ({kv} key-value heads)",
    "decode_kind_1": "grouped-query ({kv} key-value heads)",
    "decode_kind_2": "multi-query ({kv} key-value head)",
}
