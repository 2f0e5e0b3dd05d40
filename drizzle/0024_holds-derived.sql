-- shop:holds keeps no running balance any more (src/commerce/wallet/ledger.ts,
-- DERIVED_ACCOUNTS): its entries are its balance. The row's column is left at 0, so nothing
-- reads a figure that has stopped moving.
UPDATE "accounts" SET "balance" = 0 WHERE "key" = 'shop:holds';
