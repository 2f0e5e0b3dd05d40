import { describe, expect, it } from "vitest";
import { postgresTarget } from "../../src/db/postgres-target.ts";

// a DATABASE_URL that names a Unix socket as libpq does (a `host` query parameter naming a
// directory) reaches postgres.js as its `path`, and the parameter is not sent as a setting

describe("postgresTarget", () => {
  it("takes a socket directory from the host parameter, with the URL's port or 5432", () => {
    expect(postgresTarget("postgres://kios@localhost/kios?host=/var/run/postgresql")).toEqual({
      url: "postgres://kios@localhost/kios",
      path: "/var/run/postgresql/.s.PGSQL.5432",
    });
    expect(
      postgresTarget("postgresql://kios:pw@localhost:6432/shop?host=%2Ftmp%2F&sslmode=disable"),
    ).toEqual({
      url: "postgresql://kios:pw@localhost:6432/shop?sslmode=disable",
      path: "/tmp/.s.PGSQL.6432",
    });
  });

  it("takes a host name there for the URL's own, as libpq does", () => {
    expect(postgresTarget("postgres://kios@localhost:5433/kios?host=db2.example")).toEqual({
      url: "postgres://kios@db2.example:5433/kios",
    });
  });

  it("leaves a URL without a host parameter as it is", () => {
    for (const url of [
      "postgres://postgres@127.0.0.1:5432/postgres",
      "postgres://kios@db.example/kios?application_name=kios",
      "not a url",
    ]) {
      expect(postgresTarget(url)).toEqual({ url });
    }
  });
});
