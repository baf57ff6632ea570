// The Run button: a reader edits a page's code and runs it in the browser.
//
// The build marks each code block's output and each exercise cell (class
// ad-run) with its code, session and output format, and whether it needs
// PyTorch, which Pyodide lacks (attention_docs_site/execute/runnable.py);
// the page's #ad-run-data holds where Python's files are and the button's
// words (page/run.py). This script, on every such page, only adds the
// buttons: the first click loads the editor (run-editor.js), and the first
// Run loads Python, in a Web Worker, from the site's own files.
(() => {
  const SCRIPT = document.currentScript.src;
  let editor = null; // run-editor.js, once asked for

  function loadEditor() {
    editor ??= new Promise((resolve, reject) => {
      if (window.adRunEditor) return resolve(window.adRunEditor);
      const script = document.createElement("script");
      script.src = new URL("run-editor.js", SCRIPT).href;
      script.onload = () => resolve(window.adRunEditor);
      script.onerror = () => {
        editor = null; // a later click tries again
        reject(new Error("run-editor.js did not load"));
      };
      document.head.append(script);
    });
    return editor;
  }

  function setUp() {
    const blocks = document.querySelectorAll(".ad-run:not([data-run-ready])");
    if (!blocks.length) return;
    const { labels } = JSON.parse(document.getElementById("ad-run-data").dataset.run);
    for (const block of blocks) {
      block.dataset.runReady = "";
      const cell = block.dataset.runMode === "cell"; // an exercise notebook's
      block.output = block.querySelector(cell ? ".jp-Cell-outputWrapper" : ".ad-run-output");
      if (!block.output) {
        block.output = document.createElement("div");
        block.output.className = "jp-Cell-outputWrapper";
        block.append(block.output);
      }
      const label = block.dataset.runNeeds ? labels.open_torch : labels.open;
      const toggle = document.createElement("button");
      Object.assign(toggle, { type: "button", className: "ad-run-open", textContent: label });
      toggle.setAttribute("aria-expanded", "false");
      // The build leaves a place for it (execute/runnable.py).
      block.querySelector(":scope > .ad-run-toolbar").append(toggle);
      toggle.addEventListener("click", async () => {
        const open = toggle.getAttribute("aria-expanded") !== "true";
        toggle.setAttribute("aria-expanded", String(open));
        toggle.textContent = open ? labels.close : label;
        block.opening ??= loadEditor().then((loaded) => loaded.openPanel(block, toggle));
        let panel;
        try {
          panel = await block.opening;
        } catch (error) {
          block.opening = null;
          toggle.setAttribute("aria-expanded", "false");
          toggle.textContent = label;
          console.error(error);
          return;
        }
        // A second click while the editor loaded has the last word.
        panel.hidden = toggle.getAttribute("aria-expanded") !== "true";
        if (open && !panel.hidden) panel.querySelector("textarea")?.focus();
      });
    }
  }

  if (window.document$) window.document$.subscribe(setUp);
  else setUp();
})();
