// node --import this file: every module the process resolves (static import or import()) is
// appended, as a file: URL, to the file named by RECORD_MODULES
import { register } from "node:module";

const file = process.env.RECORD_MODULES;
if (!file) throw new Error("RECORD_MODULES names no file");
const hooks = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(${JSON.stringify(file)}, resolved.url + "\\n");
  return resolved;
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
