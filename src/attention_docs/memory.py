"""How much memory a PyTorch computation holds at once, and what autograd keeps.

The memory-wall chapter compares attention layers by the memory they need.
A process's resident size moves with the allocator and with whatever else
runs, so :func:`peak_bytes` counts instead: it watches every tensor the
operations inside a call create and adds up the bytes of the storages alive
at each moment. Views share their storage and count once; tensors that
existed before the call, and the results of in-place operations on them, do
not count. The answer is the same in every run on every machine, for the
same code and shapes. :func:`saved_bytes` adds up what autograd keeps for
the backward pass.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from ._torch import torch


def _tensors(tree: object) -> list[torch.Tensor]:
    from torch.utils._pytree import tree_flatten

    return [t for t in tree_flatten(tree)[0] if isinstance(t, torch.Tensor)]


class _LiveStorages(torch.utils._python_dispatch.TorchDispatchMode):
    """Tracks the bytes of the storages that tensors made inside the mode hold."""

    def __init__(self) -> None:
        super().__init__()
        self.live: dict[int, list[int]] = {}  # data pointer -> [bytes, tensors]
        self.now = 0
        self.peak = 0

    def _release(self, pointer: int) -> None:
        entry = self.live.get(pointer)
        if entry is None:
            return
        entry[1] -= 1
        if entry[1] == 0:
            self.now -= entry[0]
            del self.live[pointer]

    def _hold(self, tensor: torch.Tensor, inputs: set[int]) -> None:
        storage = tensor.untyped_storage()
        pointer = storage.data_ptr()
        if pointer == 0 or (pointer in inputs and pointer not in self.live):
            return  # empty, or an input's storage (a view, an in-place result)
        if pointer in self.live:
            self.live[pointer][1] += 1
        else:
            self.live[pointer] = [storage.nbytes(), 1]
            self.now += storage.nbytes()
            self.peak = max(self.peak, self.now)
        weakref.finalize(tensor, self._release, pointer)

    def __torch_dispatch__(
        self,
        func: Callable[..., object],
        types: tuple[type, ...],
        args: tuple[object, ...] = (),
        kwargs: dict[str, object] | None = None,
    ) -> object:
        out = func(*args, **(kwargs or {}))
        inputs = {t.untyped_storage().data_ptr() for t in _tensors((args, kwargs))}
        for tensor in _tensors(out):
            self._hold(tensor, inputs)
        return out


def peak_bytes(call: Callable[[], object]) -> int:
    """The most bytes of tensor storage ``call()`` held at once.

    Counts the storages of the tensors PyTorch's operations create while the
    call runs, as long as some tensor refers to them; what the call returns
    counts until it is dropped, after the call. Buffers an operation uses
    only inside itself are not seen.

    Parameters:
        call: The computation, with its inputs already built.

    Returns:
        The peak, in bytes.
    """
    if not callable(call):
        raise TypeError(f"call must be callable, got {type(call).__name__}")
    with _LiveStorages() as mode:
        call()
    return mode.peak


class _Saved:
    """A token for one tensor autograd keeps; alive as long as its graph node is.

    It holds the storage's address and size, not the tensor: a tensor that
    autograd keeps, returned by the pack hook, would make a reference cycle
    with its own graph node, and nothing would ever be freed.
    """

    __slots__ = ("__weakref__", "nbytes", "pointer")

    def __init__(self, tensor: torch.Tensor) -> None:
        storage = tensor.untyped_storage()
        self.pointer, self.nbytes = storage.data_ptr(), storage.nbytes()


def _no_backward(saved: _Saved) -> torch.Tensor:
    raise RuntimeError("a result of saved_bytes() has no backward pass")


def saved_bytes(call: Callable[[], object]) -> int:
    """The bytes autograd keeps for the backward pass of ``call()``'s result.

    Counts what the graph of the returned tensors still holds once the call
    has returned: a branch of the computation that the result does not
    depend on is freed with what it saved, and does not count. Each distinct
    storage counts once, whichever tensors refer to it; the inputs count too
    when autograd keeps them (as it keeps q, k and v for the gradients of q·k
    and of the pooling). The result is for measuring only: it cannot be
    differentiated.

    Parameters:
        call: The forward computation, on inputs that require gradients.

    Returns:
        The bytes of the distinct storages the result's graph keeps.
    """
    if not callable(call):
        raise TypeError(f"call must be callable, got {type(call).__name__}")
    kept: weakref.WeakSet[_Saved] = weakref.WeakSet()
    # The storages, alive until counted so that no address is reused; not the
    # tensors, whose autograd nodes would keep freed branches alive.
    held: list[torch.UntypedStorage] = []

    def pack(tensor: torch.Tensor) -> _Saved:
        held.append(tensor.untyped_storage())
        saved = _Saved(tensor)
        kept.add(saved)
        return saved

    with torch.autograd.graph.saved_tensors_hooks(pack, _no_backward):
        result = call()
    storages = {saved.pointer: saved.nbytes for saved in list(kept)}
    held.clear()
    del result
    return sum(storages.values())
