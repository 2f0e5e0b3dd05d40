-- shop:supplier_cost and shop:revenue keep no running balance any more, as shop:holds
-- (0024): every capture credits both, so their rows were locked by every settlement until
-- its commit and settlements queued on them. Their entries are their balance
-- (src/commerce/wallet/ledger.ts, DERIVED_ACCOUNTS); the rows' column is left at 0, so
-- nothing reads a figure that has stopped moving.
UPDATE "accounts" SET "balance" = 0 WHERE "key" IN ('shop:supplier_cost', 'shop:revenue');
