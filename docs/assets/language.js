// Instant navigation swaps a page's content but keeps the rest of the
// document: the header, whose language menu (mkdocs-static-i18n) links the
// first page's counterpart with relative addresses, and the page's language,
// search index and interface text. So:
// - after each page change, point the language menu at this page's
//   counterparts: every page X/ of the default edition has its counterpart
//   at <folder>X/ in each other edition (the folders are in the page's
//   #ad-edition data, written by the attention_docs plugin from mkdocs.yml);
// - a link into another edition loads its page in full (Material leaves
//   links with a target to the browser), so that edition's language, search
//   and interface text come with it.
(() => {
  const data = document.getElementById("ad-edition");
  if (!data) return;
  // folder: this edition's ("" for the default); folders: locale -> folder.
  const { folder, folders } = JSON.parse(data.textContent);
  const config = JSON.parse(document.getElementById("__config").textContent);
  // A translated edition's pages have their folder as base (search_split.py).
  const base = new URL(config.base.replace(/\/?$/, "/"), location);
  const root = folder ? new URL("../".repeat(folder.split("/").length - 1), base) : base;
  const others = Object.values(folders).filter(Boolean);
  const editionOf = (url) => {
    if (!url.href.startsWith(root.href)) return null;
    const path = url.href.slice(root.href.length);
    return others.find((other) => path.startsWith(other)) ?? "";
  };
  // Offline (file:), Material loads every page in full, and offline.py has
  // pointed the menu at the right files: nothing to do.
  if (location.protocol === "file:") return;
  document$.subscribe(() => {
    if (!location.href.startsWith(root.href)) return;
    const path = location.pathname.slice(root.pathname.length);
    const page = path.startsWith(folder) ? path.slice(folder.length) : path;
    for (const link of document.querySelectorAll(".md-select__link[hreflang]")) {
      const target = folders[link.getAttribute("hreflang")];
      if (target !== undefined) link.href = new URL(target + page, root).href;
    }
  });
  document.addEventListener(
    "click",
    (event) => {
      const link = event.target instanceof Element && event.target.closest("a[href]");
      if (!link || link.target) return;
      const url = new URL(link.href, location);
      if (url.origin === location.origin && editionOf(url) !== editionOf(location)) {
        link.target = "_self";
      }
    },
    true,
  );
})();
