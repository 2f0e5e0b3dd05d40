// what kios and its simulators share; nothing here knows of the shop

export { type Clock, ManualClock, systemClock } from "./src/clock.ts";
export { freePort, type ListenOptions, listen, type RunningServer } from "./src/listen.ts";
export { midtransSignature } from "./src/midtrans.ts";
export { type Rng, seededRng } from "./src/rng.ts";
export * from "./src/signature.ts";
