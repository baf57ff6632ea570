// Material draws each code annotation as a link whose number comes from CSS,
// so screen readers find a link without a name. Name them after their number,
// in the page's language ("Annotation 1", "注释 1").
document$.subscribe(() => {
  const word = document.documentElement.lang.startsWith("zh") ? "注释" : "Annotation";
  const name = () => {
    for (const link of document.querySelectorAll(".md-annotation__index:not([aria-label])")) {
      const id = link.querySelector("[data-md-annotation-id]")?.dataset.mdAnnotationId;
      if (id) link.setAttribute("aria-label", `${word} ${id}`);
    }
  };
  name();
  new MutationObserver(name).observe(document.body, { childList: true, subtree: true });
});
