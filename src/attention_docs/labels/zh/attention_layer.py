"""The figures of the chapter on the attention layer (Simplified Chinese)."""

LABELS: dict[str, str] = {
    "scores_raw": "q·k",
    "scores_scaled": "q·k / √d",
    "dimension_d": "维数 d",
    "top_weight": "最大权重（平均）",
    "jacobian_norm": "雅可比矩阵的 Frobenius 范数（平均）",
    "top_alt": (
        "两条曲线：随机查询对 10 个随机键的最大注意力权重的平均值，随维数 d "
        "从 1 到 {d} 变化。直接用点积时它趋向 1，在 d = {d} 时达到 {raw:.2f}；"
        "除以 √d 后，从 d = 16 起它保持在 {scaled:.2f} 附近。"
    ),
    "jacobian_alt": (
        "两条曲线：softmax 雅可比矩阵的 Frobenius 范数（各查询的平均值），随维数 d "
        "从 1 到 {d} 变化。直接用点积时，它在 d = {d} 时降到 {raw:.3f}，多数查询的"
        "分数几乎得不到梯度；除以 √d 后，它保持在 {scaled:.2f} 附近。"
    ),
    "mask_leave_one_out": "留一掩蔽",
    "mask_causal": "因果掩蔽",
    "mask_padding": "填充掩蔽",
    "masks_alt": (
        "3 幅热图：同一组 {n} × {n} 分数在 3 种掩蔽下得到的权重。留一掩蔽：除对角"
        "线外都有权重。因果掩蔽：对角线及其左下方有权重，右上方没有。填充掩蔽：每行"
        "只有前 {valid} 个键有权重，填充的键没有。"
    ),
    "encoding_dimension": "编码的列",
    "position": "位置",
    "positions_alt": (
        "热图：{n} 个位置的 {d} 维正弦位置编码。前几列在相邻行之间变化很快，"
        "越往后的列变化越慢。"
    ),
    "score_dot": "qᵀk",
    "score_scaled": "qᵀk / √d",
    "score_bilinear": "qᵀWk",
    "score_additive": "vᵀtanh(Wₐq + Uₐk)",
    "scoring_alt": (
        "4 幅热图：同样的 {n_q} 个查询对 {n_k} 个键的注意力权重（查询和键都是 "
        "{d} 维），分别来自 4 种评分函数。直接用点积时，每行大部分权重都落在"
        "一个键上（最大权重平均为 {dot:.2f}）；除以 √d 后权重分散开"
        "（{scaled:.2f}）；随机 W 的双线性分数介于两者之间（{bilinear:.2f}）；"
        "随机参数的加性分数最平坦（{additive:.2f}）。"
    ),
    "saturation_table_d": "d",
    "query_gradient_statistic": "‖∂α/∂q‖（Frobenius 范数）",
    "query_gradient_d": "维数 d = {d}",
    "query_gradient_mean_raw": "平均值（q·k）",
    "query_gradient_mean_scaled": "平均值（q·k / √d）",
    "query_gradient_median_raw": "中位数（q·k）",
    "query_gradient_median_scaled": "中位数（q·k / √d）",
    "query_gradient_p99_raw": "第 99 百分位数（q·k）",
    "query_gradient_p99_scaled": "第 99 百分位数（q·k / √d）",
    "saturation_table_std": "q·k 的标准差",
    "saturation_table_top_raw": "最大权重（q·k）",
    "saturation_table_top_scaled": "最大权重（q·k / √d）",
    "saturation_table_jacobian_raw": "雅可比矩阵范数（q·k）",
    "saturation_table_jacobian_scaled": "雅可比矩阵范数（q·k / √d）",
    "saturation_table_flat_raw": "雅可比矩阵范数 < 10⁻³ 的查询占比（q·k）",
    "order_inputs": "配置",
    "order_plain": "不加位置编码",
    "order_causal": "不加位置编码，因果掩蔽",
    "order_positions": "打乱后加上正弦位置编码（不加掩蔽）",
    "order_diff": (
        "先打乱再计算与先计算再打乱，两者输出的最大差值（相对于输出的最大值）"
    ),
    "cost_table_n": "长度 n",
    "cost_table_mib": "一个头的权重所占内存（MiB，32 位浮点数）",
    "cost_table_softmax": "softmax 注意力的乘加次数（2n²d，d = {d}）",
    "cost_table_linear": "线性注意力的乘加次数（2nd²，d = {d}）",
    "growth_table_layer": "层（一个头，d = {d}）",
    "growth_table_time": "实测耗时的增长（拟合出的 n 的幂次与所示幂次相差小于 0.5）",
    "growth_table_work": "乘加次数",
    "growth_softmax": "softmax 注意力",
    "growth_linear": "线性注意力",
    "layer_tensor": "张量",
    "layer_shape": "形状",
    "layer_inputs": "输入 X (b, n, d_model)",
    "layer_heads_q": "各个头的查询 XW_q (b, h, n, d_k)",
    "layer_weights": "权重 (b, h, n, n)",
    "layer_joined": "各个头的输出并排拼接 (b, n, h·d_k)",
    "layer_outputs": "经 W_o 变换后的输出 (b, n, d_model)",
}
