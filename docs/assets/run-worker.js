// The Run button's Python: Pyodide in a Web Worker, so the page never waits
// for it. docs/assets/run.js starts this worker on the reader's first click
// and sends it the page's code; nothing here loads before that click. Every
// file comes from the site itself: Pyodide's runtime and numpy, matplotlib
// and their dependencies (checked against Pyodide's official lock when the
// site was built, attention_docs_site/site/pyodide.py), then the library's
// wheel, the version that drew the page's figures.
//
// Messages in:  {id, type: "start", runtime, wheel}
//               {id, type: "run", session, code, mode: "print" | "cell"}
//               {id, type: "imports", session, code}: of a block that needs
//               PyTorch, only its imports that work without it
// Messages out: {id, type: "progress", step}: "runtime", "packages", "library"
//               {id, type: "done", stdout, html, error}

let python = null;

const RUNNER = String.raw`
import ast, contextlib, io, sys, traceback, types

_namespaces = {}

class HTML:
    """IPython.display.HTML, for the exercise notebooks' cells."""

    def __init__(self, data=None):
        self.data = data

    def _repr_html_(self):
        return self.data

_shown = []

def display(*objects):
    _shown.extend(objects)

_ipython = types.ModuleType("IPython")
_display = types.ModuleType("IPython.display")
_display.HTML, _display.display = HTML, display
_ipython.display = _display
_ipython.get_ipython = lambda: None  # matplotlib asks; there is no shell here
sys.modules.setdefault("IPython", _ipython)
sys.modules.setdefault("IPython.display", _display)

def _rich(value):
    html = getattr(value, "_repr_html_", None)
    if html is not None:
        return {"html": html()}
    return {"text": repr(value)}

def imports(session, code):
    """Of a block that needs PyTorch, run only the imports that work here."""
    namespace = _namespaces.setdefault(session, {"__name__": "__main__"})
    for node in ast.parse(code).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            try:
                exec(compile(ast.Module([node], []), "<block>", "exec"), namespace)
            except ImportError:
                pass

def run(session, code, mode):
    """Run code in its session's namespace: (stdout, rich outputs, error)."""
    namespace = _namespaces.setdefault(session, {"__name__": "__main__"})
    out, err = io.StringIO(), io.StringIO()
    shown = []
    _shown.clear()
    error = None
    try:
        tree = ast.parse(code, "<block>")
        last = None
        if mode == "cell" and tree.body and isinstance(tree.body[-1], ast.Expr):
            last = ast.Expression(tree.body.pop().value)
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            exec(compile(tree, "<block>", "exec"), namespace)
            value = eval(compile(last, "<block>", "eval"), namespace) if last else None
        shown = [_rich(o) for o in _shown]
        if value is not None:
            shown.append(_rich(value))
    except BaseException:
        kind, exception, trace = sys.exc_info()
        while trace is not None and trace.tb_frame.f_code.co_filename != "<block>":
            trace = trace.tb_next  # drop this runner's own frames
        error = "".join(traceback.format_exception(kind, exception, trace))
    # A cell shows what it wrote to stderr, as Jupyter does; a page's block
    # shows its printed output only, as the build does.
    text = out.getvalue() + (err.getvalue() if mode == "cell" else "")
    return text, shown, error
`;

async function start(message) {
  const post = (step) => postMessage({ id: message.id, type: "progress", step });
  post("runtime");
  importScripts(message.runtime + "pyodide.js");
  const pyodide = await loadPyodide({ indexURL: message.runtime });
  post("packages");
  await pyodide.loadPackage(["numpy", "matplotlib"], {
    messageCallback: () => {},
    errorCallback: (text) => console.error(text),
  });
  post("library");
  await pyodide.loadPackage(message.wheel, { messageCallback: () => {} });
  // The font cache is built here, once, not in the first block's output.
  pyodide.runPython("import matplotlib; matplotlib.use('agg'); import matplotlib.font_manager");
  pyodide.runPython(RUNNER);
  return pyodide;
}

onmessage = async ({ data: message }) => {
  try {
    if (message.type === "start") {
      python ??= start(message);
      await python;
      postMessage({ id: message.id, type: "done" });
      return;
    }
    const pyodide = await python;
    if (message.type === "imports") {
      const imports = pyodide.globals.get("imports");
      imports(message.session, message.code);
      imports.destroy();
      postMessage({ id: message.id, type: "done" });
      return;
    }
    const run = pyodide.globals.get("run");
    const result = run(message.session, message.code, message.mode);
    const [stdout, shown, error] = result.toJs({ dict_converter: Object.fromEntries });
    result.destroy();
    run.destroy();
    postMessage({ id: message.id, type: "done", stdout, shown, error });
  } catch (error) {
    postMessage({ id: message.id, type: "done", error: String(error), failed: true });
  }
};
