"""The trainable Nadaraya-Watson regressor (PyTorch) and its training loop.

The model scores a query q against keys k_i with -((q - k_i) w)² / 2, so it is
Gaussian-kernel attention pooling with bandwidth h = 1/|w|, and learns w by
gradient descent. Training uses leave-one-out keys and values: each training
input is a query against all the other training pairs, so the model cannot
lower its loss by attending to the query's own target.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from . import masks
from .checks import real_array
from .nearest import nearest_keys

try:
    import torch
    from torch import nn
except ModuleNotFoundError as missing:  # the library's only optional dependency
    raise ModuleNotFoundError(
        "attention_docs.model needs PyTorch, which the library installs only "
        "with its 'model' extra: pip install 'attention_docs[model]'",
        name=missing.name,
    ) from None

DTYPE = torch.float64


class NadarayaWatsonRegressor(nn.Module):
    """Attention pooling with a Gaussian kernel whose width is learned.

    Parameters:
        w: Initial value of the learnable scale; the bandwidth is 1/|w|.
    """

    def __init__(self, w: float = 1.0) -> None:
        super().__init__()
        if not np.isfinite(w) or w == 0:
            raise ValueError(f"w must be finite and non-zero, got {w!r}")
        self.w = nn.Parameter(torch.tensor([float(w)], dtype=DTYPE))

    @property
    def bandwidth(self) -> float:
        """The bandwidth h = 1/|w| that the current w stands for."""
        return 1.0 / abs(self.w.item())

    def forward(
        self,
        queries: torch.Tensor,
        keys: torch.Tensor,
        values: torch.Tensor,
        mask: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Pool each query's values with softmax attention over its keys.

        Parameters:
            queries: Shape (n_queries,).
            keys: Shape (n_queries, n_keys); row i holds the keys of query i.
            values: Shape (n_queries, n_keys), paired with ``keys``.
            mask: Optional boolean tensor of shape (n_queries, n_keys); True
                marks a pair whose score becomes -inf, so it gets weight 0.

        Returns:
            ``(predictions, weights)`` of shapes (n_queries,) and
            (n_queries, n_keys).
        """
        _check_shapes(queries, keys, values, mask)
        nearest = _nearest(queries, keys, mask)  # (n, 1), a constant of w
        # -((x - k)² - (x - k*)²) w²/2, factored so it does not round away far
        # from the keys: the same softmax as -((x - k) w)²/2, shifted by its max.
        step = keys - nearest  # (n, m)
        reach = (queries[:, None] - keys) / 2 + (queries[:, None] - nearest) / 2
        # Times w, then w again: w² alone overflows beyond |w| ≈ 1.3e154, and
        # the nearest key's 0 would become 0 * inf.
        scores = torch.where(step == 0, 0.0, step * reach) * self.w * self.w
        if mask is not None:
            scores = scores.masked_fill(mask, -torch.inf)
        weights = torch.softmax(scores, dim=1)  # (n, m)
        pooled = torch.bmm(weights.unsqueeze(1), values.unsqueeze(-1))  # (n, 1, 1)
        return pooled.reshape(-1), weights  # (n,), (n, m)


def _check_shapes(
    queries: torch.Tensor,
    keys: torch.Tensor,
    values: torch.Tensor,
    mask: torch.Tensor | None,
) -> None:
    if keys.shape != values.shape or keys.shape[:1] != queries.shape:
        raise ValueError(
            "expected queries (n,), keys and values (n, m); got "
            f"{tuple(queries.shape)}, {tuple(keys.shape)}, {tuple(values.shape)}"
        )
    if mask is None:
        return
    if mask.dtype != torch.bool or mask.shape != keys.shape:
        raise ValueError(
            f"mask must be a boolean tensor of shape {tuple(keys.shape)}, got "
            f"{mask.dtype} of shape {tuple(mask.shape)}"
        )
    if mask.all(dim=1).any():
        raise ValueError("mask hides every key of some query: nothing to attend")


def _nearest(
    queries: torch.Tensor, keys: torch.Tensor, mask: torch.Tensor | None
) -> torch.Tensor:
    """Each query's nearest visible key, decided exactly, shape (n, 1)."""
    hidden = None if mask is None else mask.numpy()
    nearest = nearest_keys(keys.detach().numpy(), queries.detach().numpy(), hidden)
    return torch.from_numpy(nearest[0]).to(DTYPE)[:, None]


def leave_one_out_mask(n: int) -> torch.Tensor:
    """The mask that leaves each query's own pair out: True on the diagonal.

    Given all n training pairs as keys and values of every training query,
    this mask makes :meth:`NadarayaWatsonRegressor.forward` compute the same
    weights as :func:`leave_one_out_pairs` (plus a zero on the diagonal), the
    way Transformer decoders hide the positions a query may not see.

    Parameters:
        n: Number of training pairs, n ≥ 2.

    Returns:
        A boolean tensor of shape (n, n) (:func:`.masks.leave_one_out`).
    """
    return torch.from_numpy(masks.leave_one_out(n))


def leave_one_out_pairs(
    x_train: torch.Tensor, y_train: torch.Tensor
) -> tuple[torch.Tensor, torch.Tensor]:
    """Keys and values for training: for query i, every pair except pair i.

    Parameters:
        x_train: Training inputs, shape (n,), n ≥ 2.
        y_train: Training targets, shape (n,).

    Returns:
        ``(keys, values)``, each of shape (n, n - 1).
    """
    n = x_train.shape[0]
    if n < 2 or x_train.shape != y_train.shape or x_train.ndim != 1:
        raise ValueError(
            "x_train and y_train must be 1-D of the same length n >= 2, got "
            f"{tuple(x_train.shape)} and {tuple(y_train.shape)}"
        )
    others = ~torch.eye(n, dtype=torch.bool)  # (n, n), False on the diagonal
    keys = x_train.expand(n, n)[others].reshape(n, n - 1)
    values = y_train.expand(n, n)[others].reshape(n, n - 1)
    return keys, values


@dataclass(frozen=True)
class TrainingResult:
    """A trained model and how its loss went.

    Attributes:
        model: The trained regressor.
        losses: Summed squared leave-one-out error before training and after
            each epoch, shape (epochs + 1,).
        ws: The value of w at the same moments, shape (epochs + 1,).
    """

    model: NadarayaWatsonRegressor
    losses: np.ndarray
    ws: np.ndarray


def _as_tensor(name: str, values: object) -> torch.Tensor:
    array = real_array(name, values)
    if not np.all(np.isfinite(array)):
        raise ValueError(f"{name} contains NaN or infinite values")
    return torch.tensor(array, dtype=DTYPE)


def train(
    x_train: np.ndarray,
    y_train: np.ndarray,
    *,
    epochs: int = 5,
    lr: float = 0.5,
    w: float | None = None,
    seed: int = 0,
    leave_one_out: bool = True,
) -> TrainingResult:
    """Fit w by plain gradient descent on the whole leave-one-out loss.

    The loss is Σ_i (f_{-i}(x_i) - y_i)², which is n times the leave-one-out
    least-squares cross-validation criterion, so its minimiser is the
    bandwidth cross-validation selects. Each step uses the whole training
    set (torch's SGD optimiser, given the full batch, is deterministic).

    Parameters:
        x_train: Training inputs, shape (n,).
        y_train: Training targets, shape (n,).
        epochs: Number of gradient steps.
        lr: Learning rate.
        w: Initial w; by default drawn uniformly from [0, 1) with ``seed``.
        seed: Seed for the initial w; the same seed gives the same history.
        leave_one_out: Whether each query's own pair is left out of its keys
            and values. Without it the loss is the in-sample error, which
            falls towards zero as w grows, so w grows without bound (an
            exercise shows this).

    Returns:
        The model, and the loss and w before training and after every epoch.
    """
    if isinstance(epochs, bool) or not isinstance(epochs, int) or epochs < 0:
        raise ValueError(f"epochs must be a non-negative integer, got {epochs!r}")
    if not (np.isfinite(lr) and lr > 0):
        raise ValueError(f"lr must be positive and finite, got {lr!r}")
    x, y = _as_tensor("x_train", x_train), _as_tensor("y_train", y_train)
    keys, values = leave_one_out_pairs(x, y)
    if not leave_one_out:
        keys, values = x.expand(x.shape[0], -1), y.expand(x.shape[0], -1)  # (n, n)
    if w is None:
        generator = torch.Generator().manual_seed(seed)
        w = torch.rand(1, generator=generator, dtype=DTYPE).item()
    model = NadarayaWatsonRegressor(w)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    losses, ws = [], []
    for epoch in range(epochs + 1):
        optimizer.zero_grad()
        loss = ((model(x, keys, values)[0] - y) ** 2).sum()
        losses.append(loss.item())
        ws.append(model.w.item())
        if epoch < epochs:
            loss.backward()
            optimizer.step()
    return TrainingResult(model, np.array(losses), np.array(ws))


def predict(
    model: NadarayaWatsonRegressor,
    x_train: np.ndarray,
    y_train: np.ndarray,
    x_query: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Predict at new queries, each using every training pair as a key and value.

    Parameters:
        model: A (trained) regressor.
        x_train: Training inputs (the keys), shape (n_train,).
        y_train: Training targets (the values), shape (n_train,).
        x_query: Query inputs, shape (n_query,).

    Returns:
        ``(predictions, weights)`` as numpy arrays of shapes (n_query,) and
        (n_query, n_train).
    """
    x, y = _as_tensor("x_train", x_train), _as_tensor("y_train", y_train)
    q = _as_tensor("x_query", x_query)
    if x.ndim != 1 or x.shape != y.shape or q.ndim != 1 or x.numel() == 0:
        raise ValueError(
            "x_train, y_train and x_query must be 1-D; x_train, y_train "
            "non-empty and of the same length"
        )
    keys = x.expand(q.shape[0], -1)  # (n_query, n_train)
    values = y.expand(q.shape[0], -1)  # (n_query, n_train)
    with torch.no_grad():
        predictions, weights = model(q, keys, values)
    return predictions.numpy(), weights.numpy()
