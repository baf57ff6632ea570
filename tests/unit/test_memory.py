"""The memory counters against allocations whose sizes are known exactly."""

import pytest
import torch

from attention_docs.memory import peak_bytes, saved_bytes


def test_the_peak_is_the_most_held_at_once():
    def call():
        a = torch.empty(1000)  # 4000 bytes
        b = torch.empty(1000)  # 8000 held
        del a
        c = torch.empty(500)  # 6000 held
        return b, c

    assert peak_bytes(call) == 8000


def test_views_and_in_place_results_count_once_and_inputs_not_at_all():
    x = torch.ones(100, 10)  # made before the call: not counted

    def call():
        y = x + 1  # 4000 bytes
        y.add_(1)
        views = y.T, y.view(-1)[:10]  # the same storage
        x.mul_(2)  # the input's storage, in place
        return views, x[:3]

    assert peak_bytes(call) == 4000
    assert peak_bytes(lambda: (x + 1).T.reshape(-1)) == 8000  # a copy: two storages


def test_a_freed_storage_s_address_reused_counts_again():
    def call():
        for _ in range(5):
            t = torch.empty(256)
            del t
        return torch.empty(300)

    assert peak_bytes(call) == 1200


def test_saved_bytes_counts_what_autograd_keeps():
    x = torch.ones(50, requires_grad=True)
    assert saved_bytes(lambda: (x * 2).sum()) == 0  # a constant factor keeps nothing
    assert saved_bytes(lambda: (x * x).sum()) == 200  # x, once though used twice
    assert saved_bytes(lambda: x.exp().sum()) == 200  # exp keeps its result


def test_a_branch_the_result_does_not_depend_on_keeps_nothing():
    x = torch.ones(50, requires_grad=True)

    def call():
        (x * x).exp()  # built and dropped: its saved tensors go with it
        return (x * 2).sum()

    assert saved_bytes(call) == 0


def test_a_result_of_saved_bytes_cannot_be_differentiated():
    x = torch.ones(3, requires_grad=True)
    kept = []
    saved_bytes(lambda: kept.append((x * x).sum()) or kept[-1])
    with pytest.raises(RuntimeError, match="no backward pass"):
        kept[-1].backward()


@pytest.mark.parametrize("counter", [peak_bytes, saved_bytes])
def test_a_call_is_required(counter):
    with pytest.raises(TypeError, match="call must be callable"):
        counter(3)
