"""The figures' text in English, by key (see :func:`attention_docs.labels.label`).

One file per kind of text; ``LABELS`` holds them all.
"""

from .attention_layer import LABELS as ATTENTION_LAYER
from .explorables import LABELS as EXPLORABLES
from .figures import LABELS as FIGURES
from .further import LABELS as FURTHER
from .memory_wall import LABELS as MEMORY_WALL
from .notebooks import LABELS as NOTEBOOKS

LABELS: dict[str, str] = {
    **FIGURES,
    **NOTEBOOKS,
    **EXPLORABLES,
    **FURTHER,
    **ATTENTION_LAYER,
    **MEMORY_WALL,
}
