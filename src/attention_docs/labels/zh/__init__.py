"""The figures' text in Simplified Chinese, by key (the same keys as English).

One file per kind of text; ``LABELS`` holds them all.
"""

from .attention_layer import LABELS as ATTENTION_LAYER
from .explorables import LABELS as EXPLORABLES
from .figures import LABELS as FIGURES
from .further import LABELS as FURTHER
from .memory_wall import LABELS as MEMORY_WALL
from .notebooks import LABELS as NOTEBOOKS

# Chinese and Latin letters or digits get a space between them
# (attention_docs.labels.space_han_and_latin), here and in the explorables.
SPACE_HAN_AND_LATIN = True

LABELS: dict[str, str] = {
    **FIGURES,
    **NOTEBOOKS,
    **EXPLORABLES,
    **FURTHER,
    **ATTENTION_LAYER,
    **MEMORY_WALL,
}
