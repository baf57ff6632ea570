"""Figure text in every language of the site, kept apart from the drawing code."""

from __future__ import annotations

import re

LANGUAGES = ("en", "zh")

LABELS: dict[str, dict[str, str]] = {
    "en": {
        # axes and legends
        "keys": "Keys",
        "queries": "Queries",
        "x": "x",
        "y": "y",
        "truth": "Truth",
        "prediction": "Prediction",
        "samples": "Samples",
        "sorted_training_inputs": "Sorted training inputs",
        "test_inputs": "Test inputs",
        "epoch": "Epoch",
        "loss": "Training loss (sum of squares)",
        "bandwidth": "Bandwidth h",
        "loo_error": "Leave-one-out error CV(h)",
        "h_cv": "h selected by cross-validation",
        "h_learned": "learned h, {epochs} epochs",
        "kernel_value": "K(u)",
        "u": "u",
        # titles
        "average_pooling": "Average pooling",
        "gaussian": "Gaussian",
        "boxcar": "Boxcar",
        "constant": "Constant",
        "epanechnikov": "Epanechnikov",
        "kernel_title": "{kernel}, h = {bandwidth:g}",
        "kernel_std_title": "{kernel}, σ = {std:g} (h = {bandwidth:.2f})",
        "trained_title": "Learned w = {w:.2f} (h = {h:.3f})",
        "summary_bandwidth": "Bandwidth",
        "summary_h": "h",
        "summary_w": "w = 1/h",
        "summary_cv": "CV(h)",
        "summary_h_cv": "selected by leave-one-out cross-validation",
        "summary_learned": "learned, {epochs} epochs at learning rate {lr:g}",
        # drawings
        "newspaper": "newspaper",
        "paper": "research paper",
        "notebook": "notebook",
        "book": "book",
        "cup": "coffee cup",
        "saliency_caption": "nonvolitional cue:\nthe red cup stands out",
        "volitional_caption": "volitional cue:\nthe task is to read",
        "task_caption": "volitional cue:\nthe task decides",
        "key": "Key",
        "value": "Value",
        "keys_caption": "Keys\n(nonvolitional\ncues)",
        "values_caption": "Values\n(sensory\ninputs)",
        "query_box": "Query\n(volitional cue)",
        "pooling_box": "Attention\npooling",
        "output_box": "Output",
        "weights_caption": "attention weights",
        # text alternatives
        "identity_alt": (
            "Heatmap of a 10 by 10 attention-weight matrix that is the identity: "
            "each query puts all its weight on the key with the same index."
        ),
        "matrix_alt": (
            "Heatmap of an attention-weight matrix with {n_queries} queries "
            "(rows) and {n_keys} keys (columns)."
        ),
        "softmax_alt": (
            "Heatmap of the softmax of a random {n} by {n} matrix: every row is a "
            "set of positive weights that sum to one, spread unevenly over the keys."
        ),
        "saliency_alt": (
            "Five objects on a desk: a newspaper, a research paper, a notebook and "
            "a book in black and white, and a red coffee cup. An arrow from an eye "
            "goes to the red cup, which stands out without any intention."
        ),
        "volitional_alt": (
            "The same five objects. This time the arrow from the eye goes to the "
            "book, because the task is to read."
        ),
        "task_alt": (
            "The same five objects. The arrow from the eye goes to the {object}, "
            "which the task calls for."
        ),
        "qkv_alt": (
            "Diagram of attention pooling: three keys, each paired with a value. "
            "The query is compared with every key; the attention weights pool the "
            "values into one output."
        ),
        # what made a prediction, as a noun phrase inside the sentences below
        "average_pooling_phrase": "average pooling",
        "kernel_phrase": "the {kernel} kernel with bandwidth h = {bandwidth:g}",
        "learned_phrase": "the learned model (w = {w:.2f}, h = {h:.3f})",
        "gaussian_noun": "Gaussian",
        "boxcar_noun": "boxcar",
        "constant_noun": "constant",
        "epanechnikov_noun": "Epanechnikov",
        "fit_alt": (
            "Training samples, the true function and the prediction of {method} "
            "over inputs from 0 to 5."
        ),
        "weights_alt": (
            "Heatmap of the attention weights of {method}: one row per test "
            "input, one column per sorted training input. {detail}"
        ),
        "weights_detail_wide": "The weight lies in a band along the diagonal.",
        "weights_detail_narrow": "The weight lies in a narrow band on the diagonal.",
        "kernels_alt": (
            "The four kernels plotted against u: boxcar, constant (dotted), "
            "Epanechnikov and Gaussian."
        ),
        "comparison_alt": (
            "A grid of predictions: one row each for the boxcar, Epanechnikov "
            "and Gaussian kernels, one column each for the kernel standard "
            "deviations 0.1, 0.25 and 0.6. Within a column the three fits look "
            "alike; along a row the fit goes from following the noise to "
            "flattening the peak."
        ),
        "loss_alt": (
            "Training loss of the parametric model over {epochs} epochs: it falls "
            "from about {first:.0f} to about {second:.0f} in the first epoch and "
            "then hardly moves."
        ),
        # lines the exercise notebooks print
        "nb_error": (
            "n = {n:4d}  h = {h:.3f}  mean squared error against the truth = "
            "{error:.4f}"
        ),
        "nb_kernel_cv": (
            "{kernel}: h_cv = {h:.3f} (σ = {sd:.3f}), CV = {cv:.4f}, "
            "error against the truth = {error:.4f}"
        ),
        "nb_reached": (
            "within 1% of h_cv = {h_cv:.4f} after {epochs} epochs; final h = {h:.4f}"
        ),
        "nb_not_reached": (
            "not within 1% of h_cv = {h_cv:.4f} after {epochs} epochs; "
            "final h = {h:.4f}"
        ),
        "nb_in_sample": (
            "h = {h:5.2f}  in-sample error = {in_sample:.4f}  "
            "leave-one-out error = {loo:.4f}"
        ),
        "nb_unmasked": "epoch {epoch:3d}  w = {w:6.2f}  training loss = {loss:.4f}",
        "cv_alt": (
            "Leave-one-out error against bandwidth on a log scale, with the "
            "bandwidth chosen by cross-validation and the learned bandwidths marked."
        ),
        # gradient descent on CV(h)
        "gd_path": "{epochs} epochs, learning rate {lr:g}",
        "gd_alt": (
            "The leave-one-out error CV(h) against the bandwidth on a log scale, "
            "with the bandwidth after each step of gradient descent drawn on the "
            "curve: with learning rate 0.5 the first step jumps far below h_cv "
            "and the later steps crawl back; with learning rate 0.05 the steps "
            "slide down the curve towards h_cv."
        ),
        # Gaussian scores as dot products
        "gaussian_scores_title": "softmax(−(q − k)² / 2h²)",
        "dot_product_scores_title": "softmax(q·k / h² − k² / 2h²)",
        "dot_product_alt": (
            "Two identical heatmaps of attention weights, test inputs down and "
            "sorted training inputs across, at h = {h:g}: on the left computed "
            "from Gaussian scores, on the right from dot products with a key "
            "bias."
        ),
        "dot_product_table_d": "dimension d",
        "dot_product_table_diff": "largest difference between the weights",
        "dot_product_table_scores": "largest |score|, Gaussian form",
        # error against the number of training examples
        "n_train": "Training examples n",
        "mse_truth": "Mean squared error against the truth",
        "fixed_h": "h = {h:g}",
        "cv_h": "h = h_cv",
        "rate": "∝ n^(−4/5)",
        "error_n_alt": (
            "Mean squared error against the true function, averaged over "
            "{seeds} data sets, for {low} to {high} training examples on "
            "log-log axes: with h = {h:g} the error levels off; with the "
            "bandwidth chosen by cross-validation it keeps falling, at least as "
            "fast as the n^(−4/5) reference line."
        ),
        # Printed by a notebook, not drawn: an ASCII minus, like the {:.2f}
        # numbers beside it. Text in figures uses U+2212.
        "nb_slope": (
            "fitted slope of log error against log n: h = {h:g}: {fixed:.2f}; "
            "h_cv: {cv:.2f} (theory for the best h: -0.80)"
        ),
    },
    "zh": {
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
        "kernel_value": "K(u)",
        "u": "u",
        "average_pooling": "平均汇聚",
        "gaussian": "高斯核",
        "boxcar": "矩形核",
        "constant": "常数核",
        "epanechnikov": "Epanechnikov 核",
        "kernel_title": "{kernel}，h = {bandwidth:g}",
        "kernel_std_title": "{kernel}，σ = {std:g}（h = {bandwidth:.2f}）",
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
            "每一行都是一组和为一的正权重，在各个键上分布不均。"
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
        "fit_alt": "训练样本、真实函数，以及{method}在 0 到 5 之间的预测。",
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
            "训练 {epochs} 个迭代周期后，与 h_cv = {h_cv:.4f} 相差不到 1%；"
            "最终 h = {h:.4f}"
        ),
        "nb_not_reached": (
            "训练 {epochs} 个迭代周期后，与 h_cv = {h_cv:.4f} 仍相差 1% 以上；"
            "最终 h = {h:.4f}"
        ),
        "nb_in_sample": (
            "h = {h:5.2f}  样本内误差 = {in_sample:.4f}  留一法误差 = {loo:.4f}"
        ),
        "nb_unmasked": "迭代周期 {epoch:3d}  w = {w:6.2f}  训练损失 = {loss:.4f}",
        "cv_alt": (
            "留一法误差随带宽变化的曲线（对数坐标），"
            "并标出交叉验证选出的带宽和训练学到的带宽。"
        ),
        "gd_path": "{epochs} 个迭代周期，学习率 {lr:g}",
        "gd_alt": (
            "留一法误差 CV(h) 随带宽变化的曲线（对数坐标），曲线上画出梯度下降"
            "每一步之后的带宽：学习率为 0.5 时，第一步跳到远低于 h_cv 的位置，"
            "之后各步缓慢回升；学习率为 0.05 时，各步沿曲线滑向 h_cv。"
        ),
        "gaussian_scores_title": "softmax(−(q − k)² / 2h²)",
        "dot_product_scores_title": "softmax(q·k / h² − k² / 2h²)",
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
        "nb_slope": (
            "以 log n 拟合 log 误差所得的斜率：h = {h:g} 时为 {fixed:.2f}；"
            "h = h_cv 时为 {cv:.2f}（最优 h 的理论值：-0.80）"
        ),
    },
}


def check_lang(lang: str) -> str:
    """Check that a language code is one the site is written in.

    Parameters:
        lang: A language code.

    Returns:
        The same code.
    """
    if lang not in LANGUAGES:
        raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
    return lang


def label(key: str, lang: str, **fields: object) -> str:
    """Figure text for a key in a language, with ``{fields}`` filled in.

    Parameters:
        key: The name of the text, e.g. ``"queries"``.
        lang: ``"en"`` or ``"zh"``.
        **fields: Values for the placeholders in the text.

    Returns:
        The text in that language.
    """
    table = LABELS[check_lang(lang)]
    if key not in table:
        raise KeyError(f"no {lang!r} label for {key!r}")
    text = table[key].format(**fields) if fields else table[key]
    return space_han_and_latin(text) if lang == "zh" else text


_HAN_THEN_LATIN = re.compile(r"([\u4e00-\u9fff])([A-Za-z0-9(])")
_LATIN_THEN_HAN = re.compile(r"([A-Za-z0-9)])([\u4e00-\u9fff])")


def space_han_and_latin(text: str) -> str:
    """Put one space between Chinese characters and Latin letters or digits.

    The site's Chinese style (CONTRIBUTING.zh.md) separates them, as in
    「带宽 h = 1 的高斯核」; text assembled from parts would otherwise glue them.

    Parameters:
        text: Chinese text.

    Returns:
        The text with those spaces.
    """
    return _LATIN_THEN_HAN.sub(r"\1 \2", _HAN_THEN_LATIN.sub(r"\1 \2", text))
