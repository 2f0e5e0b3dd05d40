import { vi } from "vitest";
import { patient } from "./helpers/patience.ts";

// vi.waitFor's cap (1 s unless a test names one) is a quiet machine's figure: every wait for
// an event scales by the patience factor (helpers/patience.ts). Only the cap grows; a wait
// still ends the moment its event comes.
const waitFor = vi.waitFor;
vi.waitFor = ((callback, options) => {
  const given = typeof options === "number" ? { timeout: options } : (options ?? {});
  return waitFor(callback, { ...given, timeout: patient(given.timeout ?? 1_000) });
}) as typeof vi.waitFor;

// the same for each test's and hook's own time limit: vitest.config.ts sets them from the load
// at the run's start, and a run that gets busier later (another suite starting beside it)
// gives each file the limits of the load when the file starts
vi.setConfig({ testTimeout: patient(30_000), hookTimeout: patient(60_000) });
