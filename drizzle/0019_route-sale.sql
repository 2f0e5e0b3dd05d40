ALTER TABLE "products" ADD COLUMN "route_cost" bigint;--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "routable" boolean;