"""The explorable figures' text (attention_docs.figures.explorables).

A ``{name}`` in braces without a format spec is filled in by the page's script.
"""

LABELS: dict[str, str] = {
    # explorable figures (attention_docs.figures.explorables); {names} in
    # braces without a format spec are filled in by the page's script.
    "ex_kernel": "Kernel",
    "ex_bandwidth": "Bandwidth h",
    "ex_query": "Query x",
    "ex_query_mark": "Prediction at the query",
    "ex_weight_axis": "Weight α",
    "ex_nw_title": "{kernel}, h = {h}",
    "ex_nw_value": "h = {h}",
    "ex_x_value": "x = {x}",
    "ex_nw_readout": "{kernel} kernel, h = {h}: prediction at x = {x} is {prediction}.",
    "ex_top_weights": " Largest weights: {weights}.",  # follows ex_nw_readout
    "ex_key_weight": "{weight} on the key at {key}",
    "ex_list_sep": ", ",
    "ex_no_key": " No key lies within h, so the prediction is the nearest key's value.",
    "ex_nw_alt": (
        "Nadaraya-Watson regression (kernel: {kernel}, h = {h}): the training "
        "samples, the true function and the fitted curve, with the prediction "
        "at the query x = {x}; below, the query's attention weight on each "
        "training input."
    ),
    "ex_score": "Scoring function",
    "ex_dot_product": "Dot product q·k",
    "ex_scaled_dot_product": "Scaled dot product q·k / √d (d = 2)",
    "ex_negative_squared_distance": "Negative squared distance −‖q − k‖² / 2",
    "ex_temperature": "Temperature T",
    "ex_t_value": "T = {t}",
    "ex_t_zero": "T → 0: lookup of the highest-scoring key",
    "ex_t_inf": "T → ∞: average of the values",
    "ex_q1": "Query q₁",
    "ex_q2": "Query q₂",
    "ex_q_value": "{q}",
    "ex_plane_title": "Keys with their values, and the query q",
    "ex_weights_title": "Attention weights",
    "ex_lookup_readout": "Output {output}. Weights: {weights}.",
    "ex_lookup_weight": "{name} {weight}",
    "ex_output": "Output = {output}",
    "ex_lookup_alt": (
        "Five keys in the plane, each labelled with its value, and the query "
        "q = ({q1}, {q2}). Bars give each key's attention weight. Scoring "
        "function: {score}; {t}."
    ),
    "ex_run": "Run",
    "ex_step": "Step",
    "ex_step_value": "step {k} of {n}",
    "ex_previous": "Previous step",
    "ex_next": "Next step",
    "ex_gd_readout": "Step {k}: w = {w}, h = {h}, training loss {loss}.",
    "ex_fit_title": "The fit at this step",
    "ex_loss_title": "Training loss by epoch",
    "ex_cv_title": "CV(h) and the steps so far",
    "ex_gd_alt": (
        "Gradient descent ({run}), step {k}: on the left, the CV(h) curve with "
        "h_cv dashed and the bandwidths reached so far; in the middle, the fit "
        "with h = {h}; on the right, the training loss at each step, with step "
        "{k} marked."
    ),
    "ex_explorer_alt": (
        "Nadaraya-Watson regression (kernel: {kernel}, h = {h:g}): the training "
        "samples, the true function, the fitted curve and the prediction "
        "{prediction:.2f} at the query x = {x:g}; below, the query's attention "
        "weight on each training input."
    ),
    "ex_lookup_static_alt": (
        "Five keys in the plane, each labelled with its value, and the query "
        "q = ({q1:g}, {q2:g}). Bars give each key's attention weight with the "
        "dot product and T = {t:g}: most of it goes to key {top}, and the "
        "output is {output:.2f}."
    ),
    # the saturation explorer (attention layer)
    "ex_sat_scale": "Scores",
    "ex_sat_d": "Dimension d",
    "ex_sat_d_value": "d = {d}",
    "ex_sat_c": "Factor c of W_q",
    "ex_sat_c_value": "c = {c}",
    "ex_sat_c_sqrt": "c = {c} = √d",
    "ex_sat_weights_title": "One query's weights, d = {d}",
    "ex_sat_means_title": "Mean largest weight, c = 1",
    "ex_sat_keys_axis": "Keys, largest score first",
    "ex_sat_this": "This query",
    "ex_sat_readout": (
        "d = {d}, scores {scores}, c = {c}: the largest weight is {top}, and "
        "the softmax Jacobian's norm is {jacobian}."
    ),
    "ex_sat_alt": (
        "One query's attention weights over ten keys, largest score first, at "
        "d = {d} with scores {scores} and c = {c}; beside them, the mean "
        "largest weight against d for q·k and q·k / √d, with this query's "
        "largest weight marked."
    ),
    "ex_sat_static_alt": (
        "One query's attention weights over ten keys at d = {d}, scores "
        "divided by √d: the largest is {top:.2f}, and the softmax Jacobian's "
        "norm is {jacobian:.2f}; beside them, the mean largest weight against "
        "d for q·k and q·k / √d, with this query's marked."
    ),
}
