// Material draws each code annotation as a link whose number comes from CSS,
// so screen readers find a link without a name. Name them after their number,
// in the page's language ("Annotation 1", "注释 1": the edition's catalog word,
// in the page's #ad-edition data). One observer names the markers Material
// adds later; each page change replaces it.
(() => {
  const data = document.getElementById("ad-edition");
  const word = data ? JSON.parse(data.textContent).annotation : "Annotation";
  const name = () => {
    for (const link of document.querySelectorAll(".md-annotation__index:not([aria-label])")) {
      const id = link.querySelector("[data-md-annotation-id]")?.dataset.mdAnnotationId;
      if (id) link.setAttribute("aria-label", `${word} ${id}`);
    }
  };
  const observer = new MutationObserver(name);
  document$.subscribe(() => {
    observer.disconnect();
    name();
    observer.observe(document.body, { childList: true, subtree: true });
  });
})();
