// the layers of kios, checked by `npm run check` (dependency-cruiser): a rule a change breaks
// fails the check with the import that broke it. docs/design.md#the-layers says why.
const FEATURES =
  "(home|purchase|bills|deposits|history|receipts|price-list|admin|reports|reconciliation|mini-app|inline|api-keys)";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "feature-imports-feature",
      comment:
        "a bot feature uses src/bot/ui/ and the commerce core, never another feature: a step two features share moves to ui/ or the core",
      severity: "error",
      from: { path: `^src/bot/${FEATURES}/` },
      to: { path: `^src/bot/${FEATURES}/`, pathNot: "^src/bot/$1/" },
    },
    {
      name: "bot-reads-tables",
      comment:
        "the bot talks to the commerce core, not to the database: only src/bot/storage/ (the chat's own state, the inbox's rows, the cards) touches tables",
      severity: "error",
      from: { path: "^src/bot/", pathNot: "^src/bot/storage/" },
      to: { path: ["^src/db/schema\\.ts$", "^node_modules/drizzle-orm/"] },
    },
    {
      name: "ui-imports-feature",
      comment: "what every feature shares depends on no feature",
      severity: "error",
      from: { path: "^src/bot/ui/" },
      to: { path: `^src/bot/${FEATURES}/` },
    },
    {
      name: "infrastructure-imports-feature",
      comment:
        "the inbox, the notification sender, the bot's storage, the HTTP server and the job runner are infrastructure: features plug into them, never the other way",
      severity: "error",
      from: { path: "^src/(bot/(inbox|notifications|storage)|server|jobs)/" },
      to: { path: `^src/bot/${FEATURES}/` },
    },
    {
      name: "orders-imports-reconciliation",
      comment:
        "reconciliation depends on orders; the order engine uses the supplier balance module, never reconciliation",
      severity: "error",
      from: { path: "^src/commerce/orders/" },
      to: { path: "^src/commerce/reconciliation/" },
    },
    {
      name: "core-imports-bot",
      comment: "the commerce core, the supplier client and the database know nothing of Telegram",
      severity: "error",
      from: { path: "^src/(commerce|supplier|gateway|db|jobs)/" },
      to: { path: "^src/bot/" },
    },
    {
      name: "mini-app-imports-bot",
      comment:
        "the Mini App is a client of the commerce core like the chat: what it asks of the chat goes through its MiniAppChat port, which the bot implements",
      severity: "error",
      from: { path: "^src/mini-app/" },
      to: { path: "^src/bot/" },
    },
    {
      name: "h2h-imports-bot",
      comment:
        "the H2H API is a client of the commerce core like the chat and the Mini App: it knows nothing of Telegram",
      severity: "error",
      from: { path: "^src/h2h/" },
      to: { path: "^src/bot/" },
    },
    {
      name: "core-imports-h2h-api",
      comment:
        "the H2H API's HTTP side (src/h2h/) sits on the core; the core's H2H part (src/commerce/h2h/) never reaches up into it",
      severity: "error",
      from: { path: "^src/(commerce|supplier|gateway|db|jobs)/" },
      to: { path: "^src/h2h/" },
    },
    {
      name: "simulator-imported-statically",
      comment:
        "a shop selling for real loads no simulator: src/ imports the sandboxes and the Bot API server only with import(), when it runs them",
      severity: "error",
      from: { path: "^src/" },
      to: {
        path: "^packages/(supplier-sandbox|digiflazz-sandbox|gateway-sandbox|bot-api-server)/",
        dependencyTypesNot: ["dynamic-import", "type-only"],
      },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default"],
    },
  },
};
