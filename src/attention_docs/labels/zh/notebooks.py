"""The lines the exercise notebooks print (Simplified Chinese)."""

LABELS: dict[str, str] = {
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
    "nb_boundary": "n = {n:4d}：x = 0 这一个点占平均误差的 {share:.0%}（h_cv）",
    "nb_slope": (
        "以 log n 拟合 log 误差所得的斜率：h = {h:g} 时为 {fixed:.2f}；"
        "h = h_cv 时为 {cv:.2f}（最佳 h 的理论值：-0.80）"
    ),
    "nb_score_variance": (
        "d = {d:2d}  σ = {sigma:g}  q·k 的方差 = {variance:7.2f}  dσ⁴ = {theory:g}"
    ),
    "nb_mask_leak": (
        "{mask}掩蔽：改动位置 4 上的词元后，输出有变化的位置为 {positions}；"
        "只改动它在值矩阵中的那一行时为 {values}"
    ),
    "nb_parameters": "{heads:2d} 个头：{count} 个参数",
    "nb_linear_row": "查询 {query:4.1f}：线性 {linear}   softmax {softmax}",
    "nb_causal": "因果",
    "nb_leave_one_out": "留一",
}
