// The Run button's Python: Pyodide in a Web Worker, so the page never waits
// for it. docs/assets/run.js starts this worker on the reader's first click
// and sends it the page's code; nothing here loads before that click. Every
// file comes from the site itself: Pyodide's runtime and numpy, matplotlib
// and their dependencies (checked against Pyodide's official lock when the
// site was built, attention_docs_site/site/pyodide.py, and unpacked in one
// file with their compiled Python, site/bytecode.py), then the library's
// wheel, the version that drew the page's figures.
//
// Messages in:  {id, type: "start", runtime, lock, wheel, compiled: {stdlib},
//               interrupt}: lock, the site's (the official one, naming the
//               start's packages in one file, and three packages loaded at
//               their first import); interrupt, a shared buffer if the page
//               is isolated
//               {id, type: "run", session, code, mode: "print" | "cell"}
//               {id, type: "imports", session, code}: of a block that needs
//               PyTorch, only its imports that work without it
// Messages out: {id, type: "progress", step}: "runtime", "packages", "library"
//               {id, type: "done", stdout, shown, error, line, missing,
//               interrupted, file}: a run's output; line: the reader's line
//               that raised; missing: the package an import asked for that
//               Pyodide here does not have; interrupted: by Stop; file: a
//               font of the site's that did not load while it ran
//               {id, type: "done", error, file}: a start that failed, and the
//               site's file that did not load, if one did not

let python = null;
const SITE_PACKAGES = "/lib/python3.12/site-packages";

const RUNNER = String.raw`
import ast, contextlib, hashlib, importlib.util, io, json, sys, sysconfig
import traceback, types, zipfile

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

class _OnDemand:
    """Packages that matplotlib declares but a start never imports (the site's
    lock leaves them out): each installed at its first import, from the
    site's file, checked against the official lock's sha256."""

    def __init__(self, wheels):
        self.wheels = wheels  # import name: (url, sha256)

    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in self.wheels:
            _install(*self.wheels[top])  # if it raises, the next import tries again
            del self.wheels[top]
        return None  # the usual finders find it now

def _install(url, sha256):
    from js import XMLHttpRequest

    request = XMLHttpRequest.new()
    request.open("GET", url, False)  # an import waits: a worker may
    request.responseType = "arraybuffer"
    try:
        request.send()  # raises if the connection is lost
        data = request.response.to_bytes() if request.status == 200 else b""
    except Exception:
        data = b""
    if hashlib.sha256(data).hexdigest() != sha256:
        name = url.rsplit("/", 1)[-1]
        raise ImportError(f"{name} did not load from the site (HTTP {request.status})")
    purelib = sysconfig.get_paths()["purelib"]
    with zipfile.ZipFile(io.BytesIO(data)) as wheel:
        wheel.extractall(purelib)
    sys.path_importer_cache.pop(purelib, None)  # it lists the folder again

def on_demand(wheels):
    sys.meta_path.insert(0, _OnDemand(json.loads(wheels)))

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

def _where(exception, trace):
    """The reader's line that raised, or None: a syntax error's, else the last
    of the reader's frames."""
    if isinstance(exception, SyntaxError) and exception.filename == "<block>":
        return exception.lineno
    line = None
    while trace is not None:
        if trace.tb_frame.f_code.co_filename == "<block>":
            line = trace.tb_lineno
        trace = trace.tb_next
    return line

def _missing(exception):
    """The package an import asked for that Python here does not have, or None."""
    if not isinstance(exception, ModuleNotFoundError) or not exception.name:
        return None
    package = exception.name.partition(".")[0]
    return package if importlib.util.find_spec(package) is None else None

def run(session, code, mode):
    """Run code in its session's namespace: (stdout, rich outputs, error, the
    reader's line that raised, the missing package, whether Stop interrupted it)."""
    namespace = _namespaces.setdefault(session, {"__name__": "__main__"})
    out, err = io.StringIO(), io.StringIO()
    shown = []
    _shown.clear()
    error = line = missing = None
    interrupted = False
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
        line, missing = _where(exception, trace), _missing(exception)
        interrupted = isinstance(exception, KeyboardInterrupt)
    # A cell shows what it wrote to stderr, as Jupyter does; a page's block
    # shows its printed output only, as the build does.
    text = out.getvalue() + (err.getvalue() if mode == "cell" else "")
    return text, shown, error, line, missing, interrupted
`;

// The first of the site's files that did not load, for the reader's message:
// every file comes through fetch (Pyodide's too) or importScripts.
let failedFile = null;
const siteFetch = self.fetch.bind(self);
self.fetch = async (resource, options) => {
  try {
    const response = await siteFetch(resource, options);
    if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
    return response;
  } catch (error) {
    failedFile ??= String(resource.url ?? resource);
    throw error;
  }
};
const siteImportScripts = self.importScripts.bind(self);
self.importScripts = (...urls) => {
  try {
    siteImportScripts(...urls);
  } catch (error) {
    failedFile ??= String(urls[0]);
    throw error;
  }
};

async function fetched(url) {
  return (await fetch(url)).arrayBuffer();
}

// The start's packages, unpacked: the tar archive of site/bytecode.py, from
// the browser's Cache Storage if an earlier start kept it there, else from the
// site, checked against the lock's sha256 (the fetch's integrity) and
// unpacked by the browser. Kept, its 36 MB are read back instead of
// unpacked again at the next start (benchmarks/run_button.py measures both).
const KEPT = "attention-docs-python";
async function unpackedPackages(runtime, { file_name, sha256 }) {
  const url = runtime + file_name;
  const key = `${url}?sha256=${sha256}`;
  // No Cache Storage (not a secure context, or refused): unpacked each time.
  const kept = await self.caches?.open(KEPT).catch(() => null);
  const hit = await kept?.match(key);
  if (hit) return hit.arrayBuffer();
  const hex = sha256.match(/../g).map((h) => String.fromCharCode(parseInt(h, 16)));
  const response = await fetch(url, { integrity: `sha256-${btoa(hex.join(""))}` });
  const tar = await new Response(
    response.body.pipeThrough(new DecompressionStream("gzip")),
  ).arrayBuffer();
  if (kept) keep(kept, key, tar); // not awaited: the start goes on
  return tar;
}

async function keep(kept, key, tar) {
  try {
    for (const old of await kept.keys()) await kept.delete(old); // an earlier site's
    await kept.put(key, new Response(tar)); // a copy of the bytes
  } catch (error) {
    console.warn(`the unpacked packages were not kept: ${error}`); // e.g. over quota
  }
}

// A tar archive's files (ustar: a 512-byte header, then the data in 512-byte
// blocks), written into Python's file system.
function writeTar(FS, buffer) {
  const data = new Uint8Array(buffer);
  const text = new TextDecoder();
  const field = (header, from, to) => {
    const bytes = header.subarray(from, to);
    const end = bytes.indexOf(0);
    return text.decode(end < 0 ? bytes : bytes.subarray(0, end));
  };
  const folders = new Set();
  for (let at = 0; at + 512 <= data.length; ) {
    const header = data.subarray(at, at + 512);
    if (header[0] === 0) break; // the archive's end
    const prefix = field(header, 345, 500);
    const path = `/${prefix ? prefix + "/" : ""}${field(header, 0, 100)}`;
    const size = parseInt(field(header, 124, 136), 8);
    const folder = path.slice(0, path.lastIndexOf("/"));
    if (!folders.has(folder)) FS.mkdirTree(folder);
    folders.add(folder);
    at += 512;
    FS.writeFile(path, data.subarray(at, at + size));
    at += Math.ceil(size / 512) * 512;
  }
}

// matplotlib's fonts that a start does not read: each a file that Emscripten
// fetches from the site when Python first reads it (a synchronous request: a
// worker may). Emscripten's lazy file throws a plain Error if the request
// fails, which would end Pyodide for good; here it is Python's OSError (EIO),
// and the run's reply names the file, so that the page ends this worker (its
// matplotlib may have gone on without the font) and offers Retry.
// A reach into Emscripten's internals (src/attention_docs_site/upstream/
// README.md): the lazy file's contents, a LazyUint8Array, make their requests
// in cacheLength and in the getter given to setDataGetter. Checked here, so
// that a Pyodide whose Emscripten changed them fails its start, naming them.
let lostFile = null;
function laterFiles(FS, runtime, { folder, files }) {
  for (const path of files) {
    const file = `${SITE_PACKAGES}/${path}`;
    const parent = file.slice(0, file.lastIndexOf("/"));
    FS.mkdirTree(parent);
    const url = runtime + folder + path;
    const lazy = FS.createLazyFile(parent, file.slice(parent.length + 1), url, true, false).contents;
    if (typeof lazy?.cacheLength !== "function" || typeof lazy.setDataGetter !== "function")
      throw new Error("Emscripten's lazy file has no cacheLength or setDataGetter");
    const guarded = (request) => (...args) => {
      try {
        return request(...args);
      } catch {
        lostFile ??= url;
        throw new FS.ErrnoError(29); // EIO
      }
    };
    // Its two requests: the length (HEAD), then each chunk's data (GET).
    lazy.cacheLength = guarded(lazy.cacheLength.bind(lazy));
    const setDataGetter = lazy.setDataGetter.bind(lazy);
    lazy.setDataGetter = (getter) => setDataGetter(guarded(getter));
  }
}

// Python compiled when the site was built (attention_docs_site/site/bytecode.py):
// the standard library's archive with the .pyc of what a start imports, and
// the packages with theirs and matplotlib's font list. Each .pyc is checked
// against its source's hash before Python uses it.
async function start(message) {
  const post = (step) => postMessage({ id: message.id, type: "progress", step });
  post("runtime");
  const lock = fetched(message.lock).then((data) => JSON.parse(new TextDecoder().decode(data)));
  const tar = lock.then((site) =>
    unpackedPackages(message.runtime, site.attention_docs_packages),
  );
  const wheel = fetched(message.wheel);
  for (const later of [lock, tar, wheel]) later.catch(() => {}); // awaited below
  importScripts(message.runtime + "pyodide.js");
  const pyodide = await loadPyodide({
    indexURL: message.runtime,
    lockFileURL: message.lock,
    stdLibURL: message.compiled.stdlib,
  });
  post("packages");
  writeTar(pyodide.FS, await tar);
  laterFiles(pyodide.FS, message.runtime, (await lock).attention_docs_packages.later);
  // Extension modules load at their import, from the files written above.
  pyodide.unpackArchive(await wheel, "wheel", { extractDir: SITE_PACKAGES });
  post("library");
  // matplotlib reads its font list from the file written above. The import
  // system may have listed site-packages before: it looks again. Not by
  // importlib.invalidate_caches(), which reads the standard library's archive
  // again for each of its packages (0.2 s).
  pyodide.runPython(`import sys
sys.path_importer_cache.pop("${SITE_PACKAGES}", None)
import matplotlib
matplotlib.use("agg")
import matplotlib.font_manager`);
  pyodide.runPython(RUNNER);
  const wheels = {};
  const { packages, attention_docs_on_demand: later = [] } = await lock;
  for (const entry of later.map((name) => packages[name]))
    for (const name of entry.imports) wheels[name] = [message.runtime + entry.file_name, entry.sha256];
  const onDemand = pyodide.globals.get("on_demand");
  onDemand(JSON.stringify(wheels));
  onDemand.destroy();
  // A cross-origin-isolated page's Stop: Python raises KeyboardInterrupt. Not
  // before now: an interrupt inside a package's install would be swallowed.
  if (message.interrupt) pyodide.setInterruptBuffer(message.interrupt);
  return pyodide;
}

onmessage = async ({ data: message }) => {
  try {
    if (message.type === "start") {
      python ??= start(message);
      try {
        await python;
      } catch (error) {
        // The page ends this worker and a Retry starts a fresh one.
        postMessage({ id: message.id, type: "done", error: String(error), file: failedFile });
        return;
      }
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
    const [stdout, shown, error, line, missing, interrupted] = result.toJs({
      dict_converter: Object.fromEntries,
    });
    result.destroy();
    run.destroy();
    const file = lostFile;
    postMessage({ id: message.id, type: "done", stdout, shown, error, line, missing, interrupted, file });
  } catch (error) {
    postMessage({ id: message.id, type: "done", error: String(error), failed: true });
  }
};
