ALTER TABLE "supplier_callbacks" RENAME TO "supplier_reports";--> statement-breakpoint
ALTER TABLE "supplier_reports" RENAME CONSTRAINT "supplier_callbacks_body_hash_unique" TO "supplier_reports_body_hash_unique";--> statement-breakpoint
ALTER INDEX "supplier_callbacks_ref" RENAME TO "supplier_reports_ref";--> statement-breakpoint
ALTER SEQUENCE "supplier_callbacks_id_seq" RENAME TO "supplier_reports_id_seq";