"""``python -m attention_docs_site.translations``."""

from attention_docs_site.translations.cli import main

raise SystemExit(main())
