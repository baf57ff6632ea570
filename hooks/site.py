"""MkDocs hooks for the site; the logic lives in attention_docs.site and is tested there."""

from attention_docs.site import on_config, on_page_content, on_page_markdown  # noqa: F401
