"""The explorable figures' text, in Simplified Chinese (figures.explorables).

A ``{name}`` in braces without a format spec is filled in by the page's script.
"""

LABELS: dict[str, str] = {
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
    # the saturation explorer (attention layer)
    "ex_sat_scale": "分数",
    "ex_sat_d": "维数 d",
    "ex_sat_d_value": "d = {d}",
    "ex_sat_c": "查询矩阵的倍数 c",
    "ex_sat_c_value": "c = {c}",
    "ex_sat_c_sqrt": "c = {c} = √d",
    "ex_sat_weights_title": "一个查询的权重，d = {d}",
    "ex_sat_means_title": "c = 1 时的最大权重：2000 个查询的平均",
    "ex_sat_keys_axis": "键（按分数从大到小）",
    "ex_sat_this": "这个查询",
    "ex_sat_readout": (
        "d = {d}，分数取 {scores}，c = {c}：最大权重为 {top}，"
        "softmax 雅可比矩阵的范数为 {jacobian}。"
    ),
    "ex_sat_alt": (
        "一个查询对 10 个键的注意力权重（按分数从大到小排列），d = {d}，"
        "分数取 {scores}，c = {c}；旁边是 q·k 与 q·k / √d 两种分数下最大权重的平均值"
        "随 d 的变化，并标出这个查询的最大权重。"
    ),
    "ex_sat_static_alt": (
        "一个查询对 10 个键的注意力权重，d = {d}，分数除以 √d：最大权重为 "
        "{top:.2f}，softmax 雅可比矩阵的范数为 {jacobian:.2f}；旁边是 q·k 与 "
        "q·k / √d 两种分数下最大权重的平均值随 d 的变化，并标出这个查询的最大权重。"
    ),
}
