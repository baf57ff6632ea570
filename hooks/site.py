"""MkDocs hooks for the site; the logic lives in attention_docs.site, tested there."""

from attention_docs.site import (  # noqa: F401
    on_config,
    on_page_content,
    on_page_markdown,
    on_post_build,
    on_post_page,
    on_post_template,
)
