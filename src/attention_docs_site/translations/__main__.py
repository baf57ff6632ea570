"""``python -m attention_docs_site.translations``."""

from .cli import main

raise SystemExit(main())
