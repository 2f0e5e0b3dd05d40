// the playground page with the demo bot, to look at while working on the page:
//   npx tsx test/playground/demo-server.ts [port]      (default port 8090)
import { DEMO_ADMIN, DEMO_CUSTOMER, startDemoPlayground } from "./demo-bot.ts";

const port = Number(process.argv[2] ?? process.env.PORT ?? 8090);
const playground = await startDemoPlayground({ port, hostname: "127.0.0.1" });

console.log(`kios playground (demo bot): ${playground.url}/`);
console.log(
  `  customer: ${DEMO_CUSTOMER.name} (${DEMO_CUSTOMER.id}), admin: ${DEMO_ADMIN.name} (${DEMO_ADMIN.id})`,
);
console.log(`  the bot's apiRoot: ${playground.url}   control API: ${playground.url}/control`);

let stopping = false;
const stop = async () => {
  if (stopping) process.exit(130);
  stopping = true;
  setTimeout(() => process.exit(1), 3000).unref();
  await playground.close();
  process.exit(0);
};
process.on("SIGINT", () => void stop());
process.on("SIGTERM", () => void stop());
