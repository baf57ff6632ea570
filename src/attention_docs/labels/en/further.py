"""The figures of the chapter "Kernel regression, further"."""

LABELS: dict[str, str] = {
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
