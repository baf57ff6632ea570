// The Run button's editor, loaded by run.js on a reader's first click on
// "Edit and run" (the first visit pays only for run.js): the panel with the
// code, Run, Stop and Reset, and the Web Worker in which Python runs
// (run-worker.js), from the site's own files. A page's blocks share one
// namespace per session, as in the build: running a block first runs the
// earlier blocks of its session that have not run yet. A block that needs
// PyTorch, which Pyodide lacks, shows its code and the notebooks instead.
//
// Stop ends the worker: Python's interrupt needs a shared buffer, which a
// page gets only with cross-origin isolation, and GitHub Pages sends no such
// headers. Every run waiting on that worker ends as stopped, and the next
// Run starts a fresh one, which runs the session's earlier blocks again.
// A start whose file did not load ends its worker too, and offers Retry. A
// run that raised selects the reader's line; one that imported a package
// Pyodide here lacks names it and points to the notebooks.
(() => {
  let worker = null;
  let started = null;
  let next = 0;
  const waiting = new Map();
  const ran = new Set(); // the blocks whose code this worker has run

  const data = () => JSON.parse(document.getElementById("ad-run-data").dataset.run);

  function ask(message, onProgress = () => {}) {
    const id = ++next;
    return new Promise((resolve) => {
      waiting.set(id, { resolve, onProgress });
      worker.postMessage({ ...message, id });
    });
  }

  function answer({ data: message }) {
    const entry = waiting.get(message.id);
    if (!entry) return;
    if (message.type === "progress") entry.onProgress(message);
    else {
      waiting.delete(message.id);
      entry.resolve(message);
    }
  }

  function startPython(labels, status) {
    if (!started) {
      const { runtime, wheel, compiled } = data();
      const script = new URL("run-worker.js", SCRIPT).href;
      worker = new Worker(script);
      worker.onmessage = answer;
      worker.onerror = (event) => {
        // The worker's script did not load or start: every waiting run ends.
        endPython({ error: event.message || labels.worker_failed, file: script });
      };
      const absolute = (path) => new URL(path, location.href).href;
      const files = { stdlib: absolute(compiled.stdlib), bytecode: absolute(compiled.bytecode) };
      const start = { type: "start", runtime: absolute(runtime), wheel: absolute(wheel), compiled: files };
      started = ask(start, (p) =>
        status(labels["loading_" + p.step]),
      ).then((reply) => {
        if (reply.error) started = null;
        return reply;
      });
    }
    return started;
  }

  // Ends the worker: every run waiting on it ends with `reply`.
  function endPython(reply) {
    if (!worker) return;
    worker.terminate();
    worker = started = null;
    ran.clear(); // a new worker has run nothing yet
    for (const [id, entry] of waiting) {
      waiting.delete(id);
      entry.resolve(reply);
    }
  }

  const stopPython = () => endPython({ stopped: true });

  // The file name of a URL of the site's, e.g. numpy-2.0.2-….whl.
  const fileName = (url) => decodeURIComponent(new URL(url, location.href).pathname.split("/").pop());

  // Selects a line of the editor's code, where a run raised.
  function selectLine(code, line) {
    const lines = code.value.split("\n");
    if (!(line >= 1 && line <= lines.length)) return;
    const start = lines.slice(0, line - 1).reduce((sum, text) => sum + text.length + 1, 0);
    code.setSelectionRange(start, start + lines[line - 1].length);
  }

  const SCRIPT = document.currentScript.src;
  const LONG_RUN_MS = 20_000; // a run this long: the status points at Stop

  function element(name, attributes = {}, text = "") {
    const node = document.createElement(name);
    for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
    if (text) node.textContent = text;
    return node;
  }

  function pre(text, className) {
    const node = element("pre", { class: className });
    node.textContent = text;
    return node;
  }

  // What a block's run shows, in place of the build's output.
  function render(block, reply) {
    const out = document.createElement("div");
    const format = block.dataset.runFormat ?? "html";
    if (reply.stdout) {
      if (format === "html") out.insertAdjacentHTML("beforeend", reply.stdout);
      else out.append(pre(format === "markdown" ? unfence(reply.stdout) : reply.stdout, "ad-run-stdout"));
    }
    for (const item of reply.shown ?? []) {
      if (item.html !== undefined) out.insertAdjacentHTML("beforeend", item.html);
      else out.append(pre(item.text, "ad-run-stdout"));
    }
    if (reply.error) out.append(pre(reply.error, "ad-run-error"));
    return out;
  }

  // A printed Markdown code block (a source listing) shows as its code.
  const unfence = (text) => text.replace(/^```\w*\n([\s\S]*?)\n```\s*$/, "$1");

  function blocksOf(session) {
    return [...document.querySelectorAll(`[data-run-session="${CSS.escape(session)}"]`)];
  }

  async function run(block, panel) {
    const { labels } = data();
    const status = (text) => (panel.status.textContent = text);
    const button = panel.run;
    button.disabled = true;
    panel.retry.hidden = true;
    panel.note.hidden = true;
    panel.stop.hidden = false;
    block.setAttribute("aria-busy", "true");
    status("");
    const long = setTimeout(() => {
      if (panel.status.textContent === labels.running) status(labels.long_run);
    }, LONG_RUN_MS);
    const stopped = (reply) => reply.stopped && (status(labels.stopped), true);
    try {
      if (location.protocol === "file:") {
        status(labels.file_protocol);
        return;
      }
      const start = await startPython(labels, status);
      if (stopped(start)) return;
      if (start.error) {
        if (start.file) {
          // A lost connection: this worker is spent; Retry starts a new one.
          endPython({ stopped: true });
          status(labels.load_failed.replace("{file}", fileName(start.file)));
          panel.retry.hidden = false;
        } else status(labels.failed.replace("{error}", start.error));
        return;
      }
      const session = block.dataset.runSession;
      for (const earlier of blocksOf(session)) {
        if (earlier === block) break;
        if (ran.has(earlier)) continue;
        status(labels.running_earlier);
        if (earlier.dataset.runNeeds) {
          // It cannot run here, but what it imports, later blocks may use
          // (the build keeps the code of such a block only if it imports).
          const code = earlier.dataset.runCode;
          if (code && stopped(await ask({ type: "imports", session, code }))) return;
          ran.add(earlier);
          continue;
        }
        const reply = await ask({ type: "run", session, code: codeOf(earlier), mode: modeOf(earlier) });
        if (stopped(reply)) return;
        ran.add(earlier);
        if (reply.error) {
          status(labels.earlier_failed);
          block.output.replaceChildren(render(earlier, reply));
          return;
        }
      }
      status(labels.running);
      const reply = await ask({ type: "run", session, code: panel.code.value, mode: modeOf(block) });
      if (stopped(reply)) return;
      ran.add(block);
      block.output.replaceChildren(render(block, reply));
      document.dispatchEvent(new CustomEvent("ad:content"));
      if (!reply.error) status(labels.done);
      else if (reply.line) {
        status(labels.raised_line.replace("{line}", reply.line));
        selectLine(panel.code, reply.line);
      } else status(labels.raised);
      if (reply.missing) {
        const name = element("code", {}, reply.missing).outerHTML;
        panel.note.innerHTML = labels.missing_package.replaceAll("{package}", name);
        panel.note.hidden = false;
      }
    } finally {
      clearTimeout(long);
      button.disabled = false;
      // The focus, on Stop until now, is not lost.
      const next = panel.retry.hidden ? button : panel.retry;
      if (document.activeElement === panel.stop) next.focus();
      panel.stop.hidden = true;
      block.removeAttribute("aria-busy");
    }
  }

  // The build's output, without what explorables.js added to a figure it
  // started (a copy of that would be a drawing without its handlers).
  function pristine(output) {
    const copy = output.cloneNode(true);
    const added = ".ad-explorable__live, .ad-explorable__controls, .ad-explorable__readout, .ad-explorable__buttons";
    copy.querySelectorAll(added).forEach((node) => node.remove());
    copy.querySelectorAll("[data-live]").forEach((node) => node.removeAttribute("data-live"));
    return copy.innerHTML;
  }

  const codeOf = (block) => block.panel?.code.value ?? block.dataset.runCode;
  const modeOf = (block) => block.dataset.runMode ?? "print";

  function openPanel(block, toggle) {
    const { labels } = data();
    const panel = element("div", { class: "ad-run-panel" });
    const id = `ad-run-${Math.random().toString(36).slice(2)}`;
    panel.id = id;
    toggle.setAttribute("aria-controls", id);
    if (block.dataset.runNeeds) {
      const note = element("p", { class: "ad-run-note" });
      note.innerHTML = labels.needs_torch;
      if (block.dataset.runCode) panel.append(pre(block.dataset.runCode, "ad-run-source"));
      panel.append(note);
    } else {
      const code = element("textarea", {
        class: "ad-run-code",
        spellcheck: "false",
        "aria-label": labels.code,
        rows: String(Math.min(20, block.dataset.runCode.split("\n").length + 1)),
        dir: "ltr",
      });
      code.value = block.dataset.runCode;
      const runButton = element("button", { type: "button", class: "md-button md-button--primary" }, labels.run);
      const stop = element("button", { type: "button", class: "md-button", hidden: "" }, labels.stop);
      const reset = element("button", { type: "button", class: "md-button" }, labels.reset);
      const retry = element("button", { type: "button", class: "md-button", hidden: "" }, labels.retry);
      const status = element("p", { class: "ad-run-status", role: "status", "aria-live": "polite" });
      const note = element("p", { class: "ad-run-note", hidden: "" }); // a missing package
      const original = pristine(block.output);
      const controls = element("div", { class: "ad-run-controls" });
      controls.append(runButton, stop, retry, reset);
      panel.append(code, controls, status, note);
      Object.assign(panel, { code, run: runButton, stop, retry, status, note });
      stop.addEventListener("click", stopPython);
      runButton.addEventListener("click", () => run(block, panel));
      retry.addEventListener("click", () => run(block, panel));
      code.addEventListener("keydown", (event) => {
        if (event.key === "Enter" && (event.ctrlKey || event.metaKey || event.shiftKey)) {
          event.preventDefault();
          run(block, panel);
        }
      });
      reset.addEventListener("click", () => {
        code.value = block.dataset.runCode;
        block.output.innerHTML = original; // an explorable starts again (ad:content)
        ran.delete(block);
        status.textContent = labels.reset_done;
        document.dispatchEvent(new CustomEvent("ad:content"));
      });
    }
    block.panel = panel;
    toggle.after(panel);
    return panel;
  }

  window.adRunEditor = { openPanel };
})();
