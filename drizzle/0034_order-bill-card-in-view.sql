ALTER TABLE "orders" ADD COLUMN "bill" jsonb;--> statement-breakpoint
CREATE INDEX "notifications_chat_created" ON "notifications" USING btree ("chat_id","created_at");--> statement-breakpoint
CREATE INDEX "telegram_updates_chat_received" ON "telegram_updates" USING btree ("chat_id","received_at");