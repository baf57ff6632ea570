// The Run button's warm start, prepared once on this machine: Pyodide itself,
// under Node.js, compiles the Python its start and a first figure import, and
// builds matplotlib's font list (attention_docs_site/site/bytecode.py).
//
//   node bytecode.mjs <pyodide.mjs> <published folder> <library source> <out>
//
// The published folder holds the runtime and the packages' wheels, each
// checked against the official lock. Writes into <out>:
//   - python_stdlib.zip's entries unchanged, and beside each module that the
//     start imports its .pyc;
//   - the .pyc of each package module imported (the library's too, from its
//     source here), in its __pycache__ folder, and matplotlib's
//     fontlist.json, as paths from /, in bytecode.zip;
//   - fonts_read.json: the font files of matplotlib's that they read, as
//     paths in site-packages.
// Every .pyc is checked-hash (PEP 552): Python reads the source and compares
// its hash before it uses one, so a stale .pyc is compiled again, never run.
import { readFileSync } from "node:fs";

const [loader, indexURL, source, out] = process.argv.slice(2);
const { loadPyodide } = await import(loader);
const quiet = { messageCallback: () => {}, errorCallback: (m) => console.error(m) };
// matplotlib lists the fonts from a set: one hash seed, one order, the same file.
const env = { PYTHONHASHSEED: "0" };
const py = await loadPyodide({ indexURL, env, stdout: (line) => console.error(line) });
await py.loadPackage(JSON.parse(readFileSync(0, "utf-8")), quiet);
for (const [path, root] of [["/runtime", indexURL], ["/library", source], ["/out", out]]) {
  py.FS.mkdirTree(path);
  py.FS.mount(py.FS.filesystems.NODEFS, { root }, path);
}
try {
  py.runPython(`
import importlib.util, os, sys

# What a start imports: the worker's own imports, then the library and a
# figure; from a file or not (a module that raised ImportError, e.g. on Windows).
compiled_here, opened = set(), None
def _audit(event, args):
    if event == "compile":
        compiled_here.add(str(args[1]))
    elif event == "open" and opened is not None and isinstance(args[0], str):
        opened.add(os.path.normpath(args[0]))
sys.addaudithook(_audit)
import matplotlib
matplotlib.use("agg")
import matplotlib.font_manager
# Here matplotlib built its font list, reading every font; in the browser it
# reads the list shipped below. The fonts read from now on are the figures'.
opened = set()
sys.path.insert(0, "/library")
from attention_docs import figures
figures.nadaraya_watson_fit(lang="en")
figures.identity_heatmap(lang="en")
figures.rate_table(lang="en")
sys.path.remove("/library")

STDLIB, PACKAGES = "/lib/python312.zip/", "/lib/python3.12/site-packages/"
STAMP = (1980, 1, 1, 0, 0, 0)  # every entry's date: the files are reproducible
imported = sorted(
    {m.__file__ for m in list(sys.modules.values()) if getattr(m, "__file__", None)}
    | compiled_here
)
import py_compile, tempfile, zipfile  # this script's own: after the count

def compiled(data, path):
    """The checked-hash .pyc of a module's source, as if compiled at path."""
    with tempfile.TemporaryDirectory() as scratch:
        source, target = f"{scratch}/module.py", f"{scratch}/module.pyc"
        with open(source, "wb") as file:
            file.write(data)
        mode = py_compile.PycInvalidationMode.CHECKED_HASH
        py_compile.compile(source, target, path, doraise=True, invalidation_mode=mode)
        with open(target, "rb") as file:
            return file.read()

def entry(name):
    info = zipfile.ZipInfo(name, STAMP)
    info.compress_type, info.external_attr = zipfile.ZIP_DEFLATED, 0o644 << 16
    return info

with zipfile.ZipFile("/runtime/python_stdlib.zip") as official, zipfile.ZipFile(
    "/out/python_stdlib.zip", "w", compresslevel=9
) as stdlib:
    names = set(official.namelist())
    for info in official.infolist():
        stdlib.writestr(entry(info.filename), official.read(info.filename))
    for path in imported:
        name = path.removeprefix(STDLIB)
        if path.startswith(STDLIB) and name.endswith(".py") and name in names:
            stdlib.writestr(entry(name + "c"), compiled(official.read(name), path))

# The font files the start and the figures read: the others load when read.
import json
fonts = os.path.join(matplotlib.get_data_path(), "fonts") + "/"
with open("/out/fonts_read.json", "w") as file:
    json.dump(sorted(p.removeprefix(PACKAGES) for p in opened if p.startswith(fonts)), file)

font_list = os.path.join(os.path.dirname(matplotlib.font_manager.__file__), "fontlist.json")
with zipfile.ZipFile("/out/bytecode.zip", "w", compresslevel=9) as bundle:
    for path in imported:
        # The library, as its wheel installs it; a module changed since is
        # compiled in the browser (its hash no longer matches).
        installed = path.replace("/library/", PACKAGES, 1)
        if installed.startswith(PACKAGES) and path.endswith(".py"):
            with open(path, "rb") as file:
                data = compiled(file.read(), installed)
            bundle.writestr(entry(importlib.util.cache_from_source(installed)[1:]), data)
    with open(font_list, "rb") as file:
        bundle.writestr(entry(font_list[1:]), file.read())
`);
} catch (error) {
  console.error("\n" + error.message); // the Python traceback, last
  process.exit(1);
}
