-- A direct write to a variant's stock (old scripts, tests, a product's own
-- stock column) sets its total; migration 0034 gave the whole difference to
-- the default branch. Now that other branches hold stock too, a fall larger
-- than the default branch holds takes the rest from the others (by id), so
-- the write never leaves a branch below zero and the branches' sum stays the
-- total. A rise is still the default branch's. The ledger itself never
-- writes this way: its movements name their branch (stock/ledger.ts).
CREATE OR REPLACE FUNCTION "branch_stock_follows_variants"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  home integer := (SELECT id FROM branches WHERE is_default);
  r record;
  b record;
  left_to_take integer;
BEGIN
  -- Set-based, as before, for every rise and for a fall the default branch covers (all but the rarest writes).
  WITH d AS (
    SELECT n.id, n.stock - coalesce((SELECT sum(x.stock) FROM branch_stock x WHERE x.variant_id = n.id), 0)::integer AS difference
    FROM new_rows n
  ),
  covered AS (
    SELECT d.id, d.difference FROM d
    LEFT JOIN branch_stock h ON h.variant_id = d.id AND h.branch_id = home
    WHERE d.difference > 0 OR (d.difference < 0 AND coalesce(h.stock, 0) + d.difference >= 0)
  ),
  changed AS (
    UPDATE branch_stock s SET stock = s.stock + c.difference FROM covered c
    WHERE s.variant_id = c.id AND s.branch_id = home
    RETURNING s.variant_id
  )
  INSERT INTO branch_stock (variant_id, branch_id, stock)
  SELECT c.id, home, c.difference FROM covered c
  WHERE c.difference > 0 AND NOT EXISTS (SELECT 1 FROM changed x WHERE x.variant_id = c.id)
  ORDER BY c.id;
  -- A fall larger than the default branch holds: the default branch first, then the others by id.
  FOR r IN
    SELECT n.id, n.stock - coalesce((SELECT sum(x.stock) FROM branch_stock x WHERE x.variant_id = n.id), 0)::integer AS difference
    FROM new_rows n ORDER BY n.id
  LOOP
    CONTINUE WHEN r.difference >= 0;
    left_to_take := -r.difference;
    FOR b IN SELECT branch_id, stock FROM branch_stock WHERE variant_id = r.id AND stock > 0 ORDER BY (branch_id = home) DESC, branch_id LOOP
      EXIT WHEN left_to_take = 0;
      UPDATE branch_stock SET stock = stock - least(left_to_take, b.stock) WHERE variant_id = r.id AND branch_id = b.branch_id;
      left_to_take := left_to_take - least(left_to_take, b.stock);
    END LOOP;
  END LOOP;
  RETURN NULL;
END $$;
