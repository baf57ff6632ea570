"""The text of the first four chapters' static figures (Simplified Chinese).

Axes, legends, titles and the text alternatives read in their place.
"""

LABELS: dict[str, str] = {
    "keys": "键",
    "queries": "查询",
    "x": "x",
    "y": "y",
    "truth": "真实函数",
    "prediction": "预测",
    "samples": "样本",
    "sorted_training_inputs": "排序后的训练输入",
    "test_inputs": "测试输入",
    "epoch": "迭代周期",
    "loss": "训练损失（平方和）",
    "bandwidth": "带宽 h",
    "loo_error": "留一法误差 CV(h)",
    "h_cv": "交叉验证选出的 h",
    "h_learned": "训练 {epochs} 个迭代周期学到的 h",
    "w_axis": "尺度 w = 1/h",
    "w_cv": "w = 1/h_cv",
    "w_boundary": "两个吸引域的分界，w = {w:.3f}",
    "w_start": "默认起点，w = {w:.2f}",
    "kernel_value": "K(u)",
    "u": "u",
    "average_pooling": "平均汇聚",
    "gaussian": "高斯核",
    "boxcar": "矩形核",
    "constant": "常数核",
    "epanechnikov": "Epanechnikov 核",
    "kernel_title": "{kernel}，h = {bandwidth:g}",
    "kernel_std_title": "σ = {std:g}，h = {bandwidth:.2f}",
    "trained_title": "学到的 w = {w:.2f}（h = {h:.3f}）",
    "summary_bandwidth": "带宽",
    "summary_h": "h",
    "summary_w": "w = 1/h",
    "summary_cv": "CV(h)",
    "summary_h_cv": "由留一法交叉验证选出的带宽",
    "summary_learned": "以学习率 {lr:g} 训练 {epochs} 个迭代周期后学到的带宽",
    "newspaper": "报纸",
    "paper": "研究论文",
    "notebook": "笔记本",
    "book": "书",
    "cup": "咖啡杯",
    "saliency_caption": "非自主性提示：\n红色的杯子很醒目",
    "volitional_caption": "自主性提示：\n任务是读书",
    "task_caption": "自主性提示：\n由任务决定",
    "key": "键",
    "value": "值",
    "keys_caption": "键\n（非自主性\n提示）",
    "values_caption": "值\n（感官输入）",
    "query_box": "查询\n（自主性提示）",
    "pooling_box": "注意力汇聚",
    "output_box": "输出",
    "weights_caption": "注意力权重",
    "identity_alt": (
        "10×10 注意力权重矩阵的热图，矩阵为单位矩阵："
        "每个查询把全部权重放在索引相同的键上。"
    ),
    "matrix_alt": (
        "注意力权重矩阵的热图：{n_queries} 个查询（行），{n_keys} 个键（列）。"
    ),
    "softmax_alt": (
        "对一个 {n}×{n} 随机矩阵按行做 softmax 后的热图："
        "每一行都是一组和为 1 的正权重，在各个键上分布不均。"
    ),
    "saliency_alt": (
        "桌上有五个物体：报纸、研究论文、笔记本和书都是黑白的，"
        "还有一个红色咖啡杯。从眼睛出发的箭头指向红色咖啡杯，它无需刻意就引人注目。"
    ),
    "volitional_alt": (
        "同样的五个物体。这一次从眼睛出发的箭头指向书，因为任务是读书。"
    ),
    "task_alt": (
        "同样的五个物体。从眼睛出发的箭头指向{object}，因为当前的任务需要它。"
    ),
    "qkv_alt": (
        "注意力汇聚示意图：三个键，每个键与一个值配对。"
        "查询与每个键比较，得到的注意力权重把各个值汇聚为一个输出。"
    ),
    "average_pooling_phrase": "平均汇聚",
    "kernel_phrase": "带宽 h = {bandwidth:g} 的{kernel}",
    "learned_phrase": "学到的模型（w = {w:.2f}，h = {h:.3f}）",
    "gaussian_noun": "高斯核",
    "boxcar_noun": "矩形核",
    "constant_noun": "常数核",
    "epanechnikov_noun": "Epanechnikov 核",
    "fit_alt": "训练样本、真实函数，以及用{method}在 0 到 5 之间所作的预测。",
    "weights_alt": (
        "{method}的注意力权重热图：每行对应一个测试输入，"
        "每列对应一个排序后的训练输入。{detail}"
    ),
    "weights_detail_wide": "权重集中在对角线附近的一条带上。",
    "weights_detail_narrow": "权重集中在对角线上的一条窄带里。",
    "kernels_alt": (
        "四个核函数关于 u 的曲线：矩形核、常数核（点线）、Epanechnikov 核和高斯核。"
    ),
    "comparison_alt": (
        "预测结果的网格图：三行依次是矩形核、Epanechnikov 核和高斯核，"
        "三列依次对应核的标准差 0.1、0.25 和 0.6。同一列中三条拟合曲线相差无几；"
        "沿着一行，拟合曲线从追随噪声变为把峰值压平。"
    ),
    "loss_alt": (
        "带参数模型在 {epochs} 个迭代周期中的训练损失：第一个迭代周期内从约 "
        "{first:.0f} 降到约 {second:.0f}，之后几乎不再变化。"
    ),
    "cv_alt": (
        "留一法误差随带宽变化的曲线（对数坐标），"
        "并标出交叉验证选出的带宽和训练学到的带宽。"
    ),
    "basins_alt": (
        "训练损失随 w 变化的曲线：左图 w 从 0 到 8，右图放大 0 到 0.4 一段。"
        "损失在 w = 1/h_cv = {w_cv:.2f} 处最小。在 0 附近，它先从 w = 0（平均汇聚）"
        "处的 {at_zero:.2f} 升到 w = {boundary:.3f} 处一个不高的峰，"
        "所以 w = 0 也是一个局部极小值点。"
    ),
    "gd_path": "{epochs} 个迭代周期，学习率 {lr:g}",
    "gd_alt": (
        "留一法误差 CV(h) 随带宽变化的曲线（对数坐标），曲线上画出梯度下降"
        "每一步之后的带宽：学习率为 0.5 时，第一步跳到远低于 h_cv 的位置，"
        "之后各步缓慢回升；学习率为 0.05 时，各步沿曲线滑向 h_cv。"
    ),
    "gaussian_scores_title": "softmax(−(q − k)² / (2h²))",
    "dot_product_scores_title": "softmax(q·k / h² − k² / (2h²))",
    "dot_product_alt": (
        "两张完全相同的注意力权重热图，行是测试输入，列是排序后的训练输入，"
        "h = {h:g}：左图由高斯分数算出，右图由点积加键的偏置项算出。"
    ),
    "dot_product_table_d": "维数 d",
    "dot_product_table_diff": "两种算法所得权重的最大差值",
    "dot_product_table_scores": "高斯形式分数的最大绝对值",
    "n_train": "训练样本数 n",
    "mse_truth": "相对真实函数的均方误差",
    "fixed_h": "h = {h:g}",
    "cv_h": "h = h_cv",
    "rate": "∝ n^(−4/5)",
    "error_n_alt": (
        "在双对数坐标中，相对真实函数的均方误差（{seeds} 个数据集的平均）"
        "随训练样本数（{low} 到 {high}）的变化：h = {h:g} 时误差趋于平稳；"
        "用交叉验证选出的带宽时误差持续下降，下降速度不慢于 n^(−4/5) 参考线。"
    ),
}
