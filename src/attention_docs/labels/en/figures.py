"""The text of the first four chapters' static figures.

Axes, legends, titles and the text alternatives read in their place.
"""

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
}
