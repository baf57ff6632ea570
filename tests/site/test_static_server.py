"""The static server the PDFs, the tests and the benchmarks serve builds with."""

import urllib.request

import pytest

from attention_docs_site.site.book import static_server


def test_it_serves_a_folder_s_files(tmp_path):
    (tmp_path / "page.html").write_text("<p>here</p>", "utf-8")
    with static_server.serve_folder(tmp_path) as address:
        with urllib.request.urlopen(f"{address}/page.html", timeout=10) as response:
            assert response.read() == b"<p>here</p>"


@pytest.mark.parametrize(
    ("error", "reported"),
    [
        (BrokenPipeError(32, "Broken pipe"), False),  # the reader left the page
        (ConnectionResetError(104, "Connection reset by peer"), False),
        (ValueError("a bug in a handler"), True),
    ],
)
def test_a_client_that_hangs_up_is_not_reported_as_an_error(capsys, error, reported):
    server = static_server._Server(("127.0.0.1", 0), static_server.QuietHandler)
    try:
        try:
            raise error
        except Exception:
            server.handle_error(None, ("127.0.0.1", 1))
    finally:
        server.server_close()
    printed = capsys.readouterr().err
    assert (type(error).__name__ in printed) is reported, printed
