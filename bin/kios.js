#!/usr/bin/env node
// kios ships TypeScript sources. `npm install` bundles them into dist/ (bin/build.js), which
// starts in half the time and memory; a checkout whose sources changed since runs them through
// tsx's loader instead, so an edit never runs stale code. KIOS_FROM_SOURCE=1 forces the sources.
import { fileURLToPath, pathToFileURL } from "node:url";
import { currentBundle } from "./bundle.js";

const bundle =
  process.env.KIOS_FROM_SOURCE === "1"
    ? undefined
    : currentBundle(fileURLToPath(new URL("../", import.meta.url)));
if (bundle) {
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(bundle).href);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../src/cli.ts");
}
