// The Run button's editor, loaded by run.js on a reader's first click on
// "Edit and run" (the first visit pays only for run.js): the panel with the
// code, Run, Stop and Reset, and the Web Worker in which Python runs
// (run-worker.js), from the site's own files. A page's blocks share one
// namespace per session, as in the build: running a block first runs the
// earlier blocks of its session that have not run yet. A block that needs
// PyTorch, which Pyodide lacks, shows its code and the notebooks instead.
//
// Stop: where the page is cross-origin isolated, it interrupts Python through
// a shared buffer (a KeyboardInterrupt in the output), and the worker goes on
// with what the session ran; if Python has not stopped within a second, or
// the page is not isolated (GitHub Pages sends no such headers), Stop ends
// the worker. Every run waiting on that worker ends as stopped, and the next
// Run starts a fresh one, which runs the session's earlier blocks again.
// A start whose file did not load ends its worker too, and offers Retry. A
// run that raised selects the reader's line; one that imported a package
// Pyodide here lacks names it and points to the notebooks.
(() => {
  let worker = null;
  let started = null;
  let interrupt = null; // the worker's interrupt buffer, if the page is isolated
  let ready = false; // whether the worker's Python has started
  let stops = 0; // how many Stops: a run that began before the last one ends
  let next = 0;
  const waiting = new Map();
  const ran = new Set(); // the blocks whose code this worker has run

  const data = () => JSON.parse(document.getElementById("ad-run-data").dataset.run);

  function ask(message, onProgress = () => {}) {
    const id = ++next;
    if (interrupt) interrupt[0] = 0; // a Stop ended the runs it was for (stops)
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
      const { runtime, lock, wheel, compiled } = data();
      const script = new URL("run-worker.js", SCRIPT).href;
      worker = new Worker(script);
      worker.onmessage = answer;
      worker.onerror = (event) => {
        if (ready) return; // code the reader ran raised later, outside a run
        // The worker's script did not load or start: every waiting run ends.
        endPython({ error: event.message || labels.worker_failed, file: script });
      };
      const absolute = (path) => new URL(path, location.href).href;
      const files = { stdlib: absolute(compiled.stdlib) };
      // Python checks it between steps: 2 is SIGINT, a KeyboardInterrupt.
      interrupt = self.crossOriginIsolated ? new Uint8Array(new SharedArrayBuffer(1)) : null;
      const start = {
        type: "start",
        runtime: absolute(runtime),
        lock: absolute(lock),
        wheel: absolute(wheel),
        compiled: files,
        interrupt,
      };
      started = ask(start, (p) =>
        status(labels["loading_" + p.step]),
      ).then((reply) => {
        ready = !reply.error && !reply.stopped;
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
    ready = false;
    ran.clear(); // a new worker has run nothing yet
    for (const [id, entry] of waiting) {
      waiting.delete(id);
      entry.resolve(reply);
    }
  }

  function stopPython() {
    stops += 1;
    if (!interrupt || !ready) return endPython({ stopped: true });
    interrupt[0] = 2;
    // The worker answers in order: the oldest waiting message is the one it runs.
    const running = waiting.keys().next().value;
    setTimeout(() => {
      if (waiting.has(running)) endPython({ stopped: true });
    }, STOP_MS);
  }

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
  const STOP_MS = 1000; // an interrupt not heeded by then: the worker ends

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
    const retrying = document.activeElement === panel.retry;
    const generation = stops;
    button.disabled = true;
    panel.retry.hidden = true;
    panel.note.hidden = true;
    panel.stop.hidden = false;
    if (retrying) panel.stop.focus(); // the focus, on Retry, is not lost
    block.setAttribute("aria-busy", "true");
    status("");
    const long = setTimeout(() => {
      if (panel.status.textContent === labels.running) status(labels.long_run);
    }, LONG_RUN_MS);
    const stopped = (reply) => reply.stopped && (status(labels.stopped), true);
    // A site's file that did not load (while Python started, or a font while
    // code ran): this worker is spent, and Retry starts a fresh one.
    const lost = (reply, label) => {
      if (!reply.file) return false;
      endPython({ stopped: true });
      status(labels[label].replace("{file}", fileName(reply.file)));
      panel.retry.hidden = false;
      return true;
    };
    // Interrupted by a Stop (this panel's or another's): the traceback shows,
    // and the session's namespace stays; the run goes no further.
    const interrupted = (shown, reply) => {
      if (generation === stops) return false;
      if (reply.interrupted) block.output.replaceChildren(render(shown, reply));
      status(reply.interrupted ? labels.interrupted : labels.stopped);
      return true;
    };
    try {
      if (location.protocol === "file:") {
        status(labels.file_protocol);
        return;
      }
      const start = await startPython(labels, status);
      if (stopped(start)) return;
      if (start.error) {
        if (lost(start, "load_failed")) return;
        endPython({ stopped: true }); // this worker is spent; the next start is new
        status(labels.failed.replace("{error}", start.error));
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
          if (code) {
            const reply = await ask({ type: "imports", session, code });
            if (stopped(reply) || interrupted(earlier, reply)) return;
          }
          ran.add(earlier);
          continue;
        }
        const reply = await ask({ type: "run", session, code: codeOf(earlier), mode: modeOf(earlier) });
        if (stopped(reply) || interrupted(earlier, reply) || lost(reply, "lost_file")) return;
        ran.add(earlier);
        if (reply.error) {
          status(labels.earlier_failed);
          block.output.replaceChildren(render(earlier, reply));
          return;
        }
      }
      status(labels.running);
      const reply = await ask({ type: "run", session, code: panel.code.value, mode: modeOf(block) });
      if (stopped(reply) || interrupted(block, reply)) return;
      block.output.replaceChildren(render(block, reply));
      document.dispatchEvent(new CustomEvent("ad:content"));
      if (lost(reply, "lost_file")) return;
      ran.add(block);
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
