"""Operators' forms written out draw as the browser infers them.

The build writes a row's leading operator's form, prefix, as MathML Core
infers it (``upstream/latex2mathml.py``), because Chromium infers it while
parsing and a pause of the parser can leave a leading minus infix. The
reference is the browser itself: each formula of every page, parsed in one
go (``innerHTML``, no pause), once as built and once with the written forms
taken out, must place every token alike.
"""

from __future__ import annotations

from helpers import CHAPTERS, NOTEBOOK_PAGES, REFERENCE_PAGES

# Each formula that has written-out forms, drawn twice side by side: as built
# and with every form taken out (latex2mathml's own, on \left and \right, are
# the inferred ones too). Returns [formulas compared, formulas that differ].
DRAW_BOTH = r"""() => {
  const inferred = (html) => html.replace(/ form="(?:prefix|infix|postfix)"/g, "");
  const host = document.createElement("div");
  document.querySelector("article").append(host);
  const tokens = (math) => {
    const origin = math.getBoundingClientRect();
    return [...math.querySelectorAll("mi, mn, mo, mtext")].map((token) => {
      const box = token.getBoundingClientRect();
      return [box.x - origin.x, box.y - origin.y, box.width, box.height];
    });
  };
  let compared = 0;
  const differ = [];
  for (const math of document.querySelectorAll("article math")) {
    const built = math.outerHTML;
    const bare = inferred(built);
    if (bare === built) continue;
    host.innerHTML = `<p>${built}</p><p>${bare}</p>`;
    const [written, guessed] = host.querySelectorAll("math");
    compared += 1;
    if (JSON.stringify(tokens(written)) !== JSON.stringify(tokens(guessed))) {
      differ.push(math.textContent);
    }
  }
  host.remove();
  return [compared, differ];
}"""


def test_written_forms_draw_as_the_browser_infers_them(page, site_url):
    compared = 0
    for path in [*CHAPTERS, *NOTEBOOK_PAGES, *REFERENCE_PAGES]:
        page.goto(f"{site_url}{path}/")
        page.wait_for_load_state("networkidle")
        page.evaluate("document.fonts.ready.then(() => true)")
        count, differ = page.evaluate(DRAW_BOTH)
        assert differ == [], f"{path}: formulas drawn otherwise: {differ[:3]}"
        compared += count
    # Every chapter has formulas with operators (the first alone has ~10).
    assert compared > 100
    assert page.problems == [] and page.foreign_requests == []


def test_a_leading_minus_is_drawn_as_a_prefix(page, site_url):
    # What the written form protects: "−∞" with the minus closer to the
    # infinity than a binary minus is to its operands. Parsed in one go with
    # the forms taken out and an explicit infix minus, the gap differs.
    page.goto(f"{site_url}parametric-attention-pooling/")
    gaps = page.evaluate(
        r"""() => {
      const math = [...document.querySelectorAll("article math")].find(
        (m) => m.textContent === "\u2212\u221E");
      const host = document.createElement("p");
      document.querySelector("article").append(host);
      const infix = math.outerHTML.replace('form="prefix"', 'form="infix"');
      host.innerHTML = math.outerHTML + infix;
      return [...host.querySelectorAll("math")].map((m) => {
        const [minus, infinity] = m.querySelectorAll("mo, mi");
        return infinity.getBoundingClientRect().x - minus.getBoundingClientRect().right;
      });
    }"""
    )
    prefix, infix = gaps
    assert prefix < infix
