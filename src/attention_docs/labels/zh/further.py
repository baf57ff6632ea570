"""The figures of the chapter "Kernel regression, further" (Simplified Chinese)."""

LABELS: dict[str, str] = {
    # 核回归进阶
    "true_density": "真实密度（在 [0, 5) 上为 1/5）",
    "density": "估计的密度",
    "density_alt": (
        "用带宽为 0.1、0.3 和 1 的高斯核，对前几章那 {n} 个训练输入所作的核密度估计，"
        "并与 [0, 5) 上的真实密度 1/5 对比：带宽最小的估计起伏尖锐；带宽最大的估计"
        "平滑，但在 0 和 5 处只有真实密度的一半左右，并且延伸到两端之外。"
    ),
    "class_name": "类别 {c}",
    "class_estimate": "{name}（估计）",
    "class_truth": "{name}（真实）",
    "probability": "P(类别 | x)",
    "classes_alt": (
        "三个类别的概率随 x 的变化：点线是真实概率，实线是用带宽 h = {h:.2f} "
        "的高斯核对 {n} 个样本的独热标签做注意力汇聚得到的估计。类别 1 在左侧占优，"
        "类别 2 在中间，类别 3 在右侧。"
    ),
    "x1": "x₁",
    "x2": "x₂",
    "shared_width_title": "h₁ = h₂ = {h:.2f}",
    "two_widths_title": "h₁ = {h1:.2f}，h₂ = {h2:.2f}",
    "two_inputs_alt": (
        "正方形 [0, 5]² 上的三幅图：函数 2·sin(2·x₁) + 0.5·x₂，沿 x₁ 起伏、"
        "沿 x₂ 缓慢上升；用 {n} 个带噪声样本、两个输入共用宽度 h = {h:.2f} "
        "得到的 Nadaraya-Watson 拟合，斑驳不匀；以及宽度为 h₁ = {h1:.2f}、"
        "h₂ = {h2:.2f} 的拟合，沿 x₂ 方向平滑。"
    ),
    "dimension": "d = {d}",
    "rate_d": "n^(−4/{denominator})",
    "expected_error": "最佳 h 下的期望平方误差",
    "dimension_alt": (
        "双对数坐标图：输入为 1、2、3 维时，最佳带宽下的期望平方误差随训练样本数"
        "（从 {low} 到 {high}）的变化，每条线旁有一条斜率为 −4/(4 + d) 的点线。"
        "维数越高，线越高、越平缓。"
    ),
    "rate_table_d": "维数 d",
    "rate_table_slope": "log 误差对 log n 的斜率",
    "rate_table_limit": "极限 −4/(4 + d)",
    "rate_table_h": "最佳 h，n = 100 → 3200",
    "rate_table_nh": "n·h^d",
    "nw_title": "Nadaraya-Watson，h = {h:g}",
    "local_linear_title": "局部线性，h = {h:g}",
    "boundary_alt": (
        "用带宽 h = {h:g} 的高斯核对注意力汇聚一章的数据所作的两个拟合："
        "Nadaraya-Watson 估计在 x = 0 处远高于真实函数，"
        "局部线性回归则从接近真实值处开始。"
    ),
    "nw_method": "Nadaraya-Watson",
    "local_linear_method": "局部线性",
    "boundary_table_method": "估计器",
    "boundary_table_bias": "x = {x:g} 处的偏差",
    "boundary_table_spread": "x = {x:g} 处的标准差",
    "boundary_table_mse": "整个网格上的均方误差",
    "dot_product_score": "点积 q·k",
    "gaussian_score": "高斯，h = {h:g}",
    "gradient_table_score": "分数",
    "gradient_table_n": "键的个数",
    "gradient_table_d": "维数",
    "gradient_table_diff": "与自动微分结果的最大差值",
}
