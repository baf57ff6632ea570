"""The figures' text in Simplified Chinese, by key (the same keys as English)."""

# Chinese and Latin letters or digits get a space between them
# (attention_docs.labels.space_han_and_latin), here and in the explorables.
SPACE_HAN_AND_LATIN = True

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
    "nb_error": "n = {n:4d}  h = {h:.3f}  相对真实函数的均方误差 = {error:.4f}",
    "nb_kernel_cv": (
        "{kernel}：h_cv = {h:.3f}（σ = {sd:.3f}），CV = {cv:.4f}，"
        "相对真实函数的误差 = {error:.4f}"
    ),
    "nb_reached": (
        "学习率 {lr:g}：训练 {epochs} 个迭代周期后，与 h_cv = {h_cv:.4f} "
        "相差不到 1%；最终 h = {h:.4f}"
    ),
    "nb_not_reached": (
        "学习率 {lr:g}：训练 {epochs} 个迭代周期后，与 h_cv = {h_cv:.4f} "
        "仍相差 1% 以上；最终 h = {h:.4f}"
    ),
    "nb_in_sample": (
        "h = {h:5.2f}  样本内误差 = {in_sample:.4f}  留一法误差 = {loo:.4f}"
    ),
    "nb_unmasked": "迭代周期 {epoch:3d}  w = {w:6.2f}  训练损失 = {loss:.4f}",
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
    "nb_boundary": "n = {n:4d}：x = 0 这一个点占平均误差的 {share:.0%}（h_cv）",
    "nb_slope": (
        "以 log n 拟合 log 误差所得的斜率：h = {h:g} 时为 {fixed:.2f}；"
        "h = h_cv 时为 {cv:.2f}（最佳 h 的理论值：-0.80）"
    ),
    # 可交互的插图（attention_docs.figures.explorables）；不带格式说明的
    # {名字} 由页面的脚本填入。
    "ex_kernel": "核",
    "ex_bandwidth": "带宽 h",
    "ex_query": "查询 x",
    "ex_query_mark": "查询处的预测",
    "ex_weight_axis": "权重 α",
    "ex_nw_title": "{kernel}，h = {h}",
    "ex_nw_value": "h = {h}",
    "ex_x_value": "x = {x}",
    "ex_nw_readout": "{kernel}，h = {h}：在 x = {x} 处的预测为 {prediction}。",
    "ex_top_weights": "最大的权重：{weights}。",
    "ex_key_weight": "x = {key} 处的键（{weight}）",
    "ex_list_sep": "、",
    "ex_no_key": "与查询距离在 h 以内的键一个也没有，所以预测取最近那个键的值。",
    "ex_nw_alt": (
        "Nadaraya-Watson 回归（{kernel}，h = {h}）：训练样本、真实函数、拟合曲线，"
        "以及在查询 x = {x} 处的预测；下方是查询给每个训练输入的注意力权重。"
    ),
    "ex_score": "评分函数",
    "ex_dot_product": "点积 q·k",
    "ex_scaled_dot_product": "缩放点积 q·k / √d（d = 2）",
    "ex_negative_squared_distance": "负的平方距离 −‖q − k‖² / 2",
    "ex_temperature": "温度 T",
    "ex_t_value": "T = {t}",
    "ex_t_zero": "T → 0：查找得分最高的键",
    "ex_t_inf": "T → ∞：所有值的平均",
    "ex_q1": "查询 q₁",
    "ex_q2": "查询 q₂",
    "ex_q_value": "{q}",
    "ex_plane_title": "各个键及其值，以及查询 q",
    "ex_weights_title": "注意力权重",
    "ex_lookup_readout": "输出为 {output}。权重：{weights}。",
    "ex_lookup_weight": "{name} {weight}",
    "ex_output": "输出 = {output}",
    "ex_lookup_alt": (
        "平面上的五个键，各自标有它的值，以及查询 q = ({q1}, {q2})。条形表示"
        "每个键的注意力权重。评分函数：{score}；{t}。"
    ),
    "ex_run": "训练方案",
    "ex_step": "当前步",
    "ex_step_value": "第 {k} 步，共 {n} 步",
    "ex_previous": "上一步",
    "ex_next": "下一步",
    "ex_gd_readout": "第 {k} 步：w = {w}，h = {h}，训练损失 {loss}。",
    "ex_fit_title": "这一步的拟合",
    "ex_loss_title": "每个迭代周期的训练损失",
    "ex_cv_title": "CV(h) 与已走过的各步",
    "ex_gd_alt": (
        "梯度下降（{run}）第 {k} 步：左图是 CV(h) 曲线，虚线标出 h_cv，并标出已走过"
        "各步的带宽；中图是 h = {h} 时的拟合；右图是每一步的训练损失，并标出第 "
        "{k} 步。"
    ),
    "ex_explorer_alt": (
        "Nadaraya-Watson 回归（{kernel}，h = {h:g}）：训练样本、真实函数、拟合曲线，"
        "以及在查询 x = {x:g} 处的预测值 {prediction:.2f}；下方是查询给每个训练"
        "输入的注意力权重。"
    ),
    "ex_lookup_static_alt": (
        "平面上的五个键，各自标有它的值，以及查询 q = ({q1:g}, {q2:g})。条形表示"
        "使用点积、T = {t:g} 时每个键的注意力权重：大部分权重落在键 {top} 上，"
        "输出为 {output:.2f}。"
    ),
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
