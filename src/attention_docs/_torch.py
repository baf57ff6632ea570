"""PyTorch, the library's one optional dependency, or an error saying how to get it."""

from __future__ import annotations

try:
    import torch
    from torch import nn
except ModuleNotFoundError as missing:
    raise ModuleNotFoundError(
        "attention_docs.layers and attention_docs.scoring need PyTorch, which the "
        "library installs only with its 'model' extra: "
        "pip install 'attention_docs[model]'",
        name=missing.name,
    ) from None

__all__ = ["nn", "torch"]
