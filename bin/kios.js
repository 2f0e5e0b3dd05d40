#!/usr/bin/env node
// kios ships TypeScript sources and runs them through tsx's loader, so `npm start`
// works straight after `npm install` with no build step.
import { register } from "tsx/esm/api";

register();
await import("../src/cli.ts");
