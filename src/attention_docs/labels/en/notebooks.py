"""The lines the exercise notebooks print."""

LABELS: dict[str, str] = {
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
    "nb_boundary": (
        "n = {n:4d}: x = 0 accounts for {share:.0%} of the averaged error (h_cv)"
    ),
    # Printed by a notebook, not drawn: an ASCII minus, like the {:.2f}
    # numbers beside it. Text in figures uses U+2212.
    "nb_slope": (
        "fitted slope of log error against log n: h = {h:g}: {fixed:.2f}; "
        "h_cv: {cv:.2f} (theory for the best h: -0.80)"
    ),
    # exercises of the attention layer
    "nb_score_variance": (
        "d = {d:2d}  σ = {sigma:g}  variance of q·k = {variance:7.2f}  dσ⁴ = {theory:g}"
    ),
    "nb_mask_leak": (
        "{mask} mask: changing the token at position 4 changes the outputs at "
        "positions {positions}; changing only its value, at positions {values}"
    ),
    "nb_parameters": "{heads:2d} heads: {count} parameters",
    "nb_linear_row": "query {query:+.1f}: linear {linear}   softmax {softmax}",
    "nb_causal": "causal",
    "nb_leave_one_out": "leave-one-out",
}
