// Instant navigation swaps the page's content but keeps the header, whose
// language menu (mkdocs-static-i18n) links the first page's counterpart with
// relative addresses. After each page change, point it at this page's
// counterpart: every English page X/ has its Chinese page at zh/X/.
(() => {
  const config = JSON.parse(document.getElementById("__config").textContent);
  const root = new URL(config.base.replace(/\/?$/, "/"), location);
  document$.subscribe(() => {
    if (!location.href.startsWith(root.href)) return;
    const page = location.pathname.slice(root.pathname.length).replace(/^zh\//, "");
    for (const link of document.querySelectorAll(".md-select__link[hreflang]")) {
      const lang = link.getAttribute("hreflang");
      link.href = new URL((lang === "en" ? "" : `${lang}/`) + page, root).href;
    }
  });
})();
