"""The figures' text in English, by key (see :func:`attention_docs.labels.label`)."""

LABELS: dict[str, str] = {
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
    "w_axis": "Scale w = 1/h",
    "w_cv": "w = 1/h_cv",
    "w_boundary": "basin boundary, w = {w:.3f}",
    "w_start": "default start, w = {w:.2f}",
    "kernel_value": "K(u)",
    "u": "u",
    # titles
    "average_pooling": "Average pooling",
    "gaussian": "Gaussian",
    "boxcar": "Boxcar",
    "constant": "Constant",
    "epanechnikov": "Epanechnikov",
    "kernel_title": "{kernel}, h = {bandwidth:g}",
    "kernel_std_title": "σ = {std:g}, h = {bandwidth:.2f}",
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
        "Training samples, the true function and the prediction made with "
        "{method} over inputs from 0 to 5."
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
        "n = {n:4d}  h = {h:.3f}  mean squared error against the truth = {error:.4f}"
    ),
    "nb_kernel_cv": (
        "{kernel}: h_cv = {h:.3f} (σ = {sd:.3f}), CV = {cv:.4f}, "
        "error against the truth = {error:.4f}"
    ),
    "nb_reached": (
        "lr = {lr:g}: within 1% of h_cv = {h_cv:.4f} after {epochs} epochs; "
        "final h = {h:.4f}"
    ),
    "nb_not_reached": (
        "lr = {lr:g}: not within 1% of h_cv = {h_cv:.4f} after {epochs} "
        "epochs; final h = {h:.4f}"
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
    "basins_alt": (
        "The training loss against w from 0 to 8, and from 0 to 0.4 enlarged "
        "on the right. It is lowest at w = 1/h_cv = {w_cv:.2f}. Near 0 it first "
        "rises, from {at_zero:.2f} at w = 0 (average pooling) to a low peak at "
        "w = {boundary:.3f}, so w = 0 is a local minimum too."
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
    "gaussian_scores_title": "softmax(−(q − k)² / (2h²))",
    "dot_product_scores_title": "softmax(q·k / h² − k² / (2h²))",
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
    "nb_boundary": (
        "n = {n:4d}: x = 0 accounts for {share:.0%} of the averaged error (h_cv)"
    ),
    # Printed by a notebook, not drawn: an ASCII minus, like the {:.2f}
    # numbers beside it. Text in figures uses U+2212.
    "nb_slope": (
        "fitted slope of log error against log n: h = {h:g}: {fixed:.2f}; "
        "h_cv: {cv:.2f} (theory for the best h: -0.80)"
    ),
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
    # kernel regression, further
    "true_density": "True density (1/5 on [0, 5))",
    "density": "Estimated density",
    "density_alt": (
        "Kernel density estimates of the earlier chapters' {n} training inputs with "
        "Gaussian kernels of bandwidth 0.1, 0.3 and 1, against the true density "
        "1/5 on [0, 5): the narrowest is spiky, the widest smooth but about half "
        "the true density at 0 and at 5, and spread beyond both ends."
    ),
    "class_name": "class {c}",
    "class_estimate": "{name}, estimated",
    "class_truth": "{name}, true",
    "probability": "P(class | x)",
    "classes_alt": (
        "Probabilities of three classes against x: the true ones dotted, and "
        "those estimated by attention pooling of the one-hot labels of {n} "
        "examples with a Gaussian kernel of bandwidth h = {h:.2f}, solid. Class 1 "
        "dominates on the left, class 2 in the middle and class 3 on the right."
    ),
    "x1": "x₁",
    "x2": "x₂",
    "shared_width_title": "h₁ = h₂ = {h:.2f}",
    "two_widths_title": "h₁ = {h1:.2f}, h₂ = {h2:.2f}",
    "two_inputs_alt": (
        "Three images over the square [0, 5]²: the function 2·sin(2·x₁) + "
        "0.5·x₂, which has waves along x₁ and a slow rise along x₂; its "
        "Nadaraya-Watson fit from {n} noisy samples with one width "
        "h = {h:.2f} for both inputs, which is blotchy; and the fit with widths "
        "h₁ = {h1:.2f} and h₂ = {h2:.2f}, which is smooth along x₂."
    ),
    "dimension": "d = {d}",
    "rate_d": "n^(−4/{denominator})",
    "expected_error": "Expected squared error at the best h",
    "dimension_alt": (
        "Log-log plot of the expected squared error at the best bandwidth "
        "against the number of training examples, from {low} to {high}, for "
        "inputs of 1, 2 and 3 dimensions, each with a dotted line of slope "
        "−4/(4 + d). The more dimensions, the higher and the flatter the line."
    ),
    "rate_table_d": "Dimension d",
    "rate_table_slope": "Slope of log error against log n",
    "rate_table_limit": "Limit −4/(4 + d)",
    "rate_table_h": "Best h, n = 100 → 3200",
    "rate_table_nh": "n·h^d",
    "nw_title": "Nadaraya-Watson, h = {h:g}",
    "local_linear_title": "Local linear, h = {h:g}",
    "boundary_alt": (
        "Two fits of the attention-pooling chapter's data with a Gaussian "
        "kernel of bandwidth h = {h:g}: Nadaraya-Watson, which starts well "
        "above the truth at x = 0, and local linear regression, which starts "
        "close to it."
    ),
    "nw_method": "Nadaraya-Watson",
    "local_linear_method": "Local linear",
    "boundary_table_method": "Estimator",
    "boundary_table_bias": "Bias at x = {x:g}",
    "boundary_table_spread": "Standard deviation at x = {x:g}",
    "boundary_table_mse": "Mean squared error, all x",
    "dot_product_score": "dot product q·k",
    "gaussian_score": "Gaussian, h = {h:g}",
    "gradient_table_score": "Score",
    "gradient_table_n": "Keys",
    "gradient_table_d": "Dimension",
    "gradient_table_diff": "Largest difference from autograd",
}
