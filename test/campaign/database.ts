import { randomBytes } from "node:crypto";
import postgres from "postgres";

// a database of its own for one campaign, created on the given server and dropped after.

export interface CampaignDatabase {
  /** the connection string of the new database */
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createCampaignDatabase(serverUrl: string): Promise<CampaignDatabase> {
  const name = `kios_campaign_${randomBytes(5).toString("hex")}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  let dropped: Promise<void> | undefined;
  return {
    url: url.toString(),
    name,
    drop() {
      dropped ??= (async () => {
        const sql = postgres(serverUrl, { max: 1, onnotice: () => {} });
        try {
          // a killed kios may leave connections behind: they go with the database
          await sql.unsafe(`drop database if exists ${name} with (force)`);
        } finally {
          await sql.end();
        }
      })();
      return dropped;
    },
  };
}
