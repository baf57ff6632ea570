// Run Python code in Pyodide under Node.js, from the site's own files.
//
//   node pyodide_run.mjs <pyodide.mjs> <published folder> <library wheel> < cases.json
//
// cases.json maps a name to Python source; each runs in a fresh namespace and
// what it prints is collected. Prints {"name": stdout, ...} as JSON. Used by
// tests/e2e/test_pyodide_library.py (the library on Pyodide's numpy and
// matplotlib, beside CPython's).
import { readFileSync } from "node:fs";

const [loader, indexURL, wheel] = process.argv.slice(2);
const { loadPyodide } = await import(loader);
const cases = JSON.parse(readFileSync(0, "utf-8"));
const quiet = { messageCallback: () => {}, errorCallback: (m) => console.error(m) };
const py = await loadPyodide({ indexURL, stdout: (line) => console.error(line) });
await py.loadPackage(["numpy", "matplotlib"], quiet);
await py.loadPackage(wheel, quiet);
py.globals.set("cases_json", JSON.stringify(cases));
let result;
try {
  result = await py.runPythonAsync(`
import contextlib, io, json
outputs = {}
for name, code in json.loads(cases_json).items():
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        exec(compile(code, name, "exec"), {"__name__": "__main__"})
    outputs[name] = buffer.getvalue()
json.dumps(outputs)
`);
} catch (error) {
  console.error("\n" + error.message); // the Python traceback, last
  process.exit(1);
}
process.stdout.write(result);
