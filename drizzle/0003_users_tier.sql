ALTER TABLE "users" RENAME COLUMN "role" TO "tier";--> statement-breakpoint
ALTER TABLE "users" DROP CONSTRAINT "users_role_known";--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_tier_known" CHECK ("users"."tier" in ('customer', 'reseller'));