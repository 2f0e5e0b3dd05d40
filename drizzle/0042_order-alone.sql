-- a condition a statement with no transaction around it must meet, or the whole statement is
-- undone (an H2H order stored in one statement: src/commerce/orders/place.ts). Where a
-- transaction's caller would throw and roll back, a lone statement raises: KT002, with what
-- was not met in the message.
CREATE OR REPLACE FUNCTION kios_assert(p_ok boolean, p_what text) RETURNS boolean AS $$
BEGIN
  IF p_ok IS NOT TRUE THEN
    RAISE EXCEPTION 'kios_assert: %', p_what USING ERRCODE = 'KT002';
  END IF;
  RETURN true;
END;
$$ LANGUAGE plpgsql;
