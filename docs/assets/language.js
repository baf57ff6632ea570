// Instant navigation swaps a page's content but keeps the rest of the
// document: the header, whose language menu (mkdocs-static-i18n) links the
// first page's counterpart with relative addresses, and the page's language,
// search index and interface text. So:
// - after each page change, point the language menu at this page's
//   counterpart: every English page X/ has its Chinese page at zh/X/;
// - a link into the other edition loads its page in full (Material leaves
//   links with a target to the browser), so that edition's language, search
//   and interface text come with it.
(() => {
  const config = JSON.parse(document.getElementById("__config").textContent);
  // Chinese pages' base is their edition's folder (search_split.py).
  const base = new URL(config.base.replace(/\/?$/, "/"), location);
  const root = base.href.endsWith("/zh/") ? new URL("../", base) : base;
  const edition = (url) =>
    url.href.startsWith(root.href) && url.href.slice(root.href.length).startsWith("zh/")
      ? "zh"
      : "en";
  // Offline (file:), Material loads every page in full, and offline.py has
  // pointed the menu at the right files: nothing to do.
  if (location.protocol === "file:") return;
  document$.subscribe(() => {
    if (!location.href.startsWith(root.href)) return;
    const page = location.pathname.slice(root.pathname.length).replace(/^zh\//, "");
    for (const link of document.querySelectorAll(".md-select__link[hreflang]")) {
      const lang = link.getAttribute("hreflang");
      link.href = new URL((lang === "en" ? "" : `${lang}/`) + page, root).href;
    }
  });
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target instanceof Element && event.target.closest("a[href]");
      if (!link || link.target) return;
      const url = new URL(link.href, location);
      if (url.origin === location.origin && edition(url) !== edition(location)) {
        link.target = "_self";
      }
    },
    true,
  );
})();
