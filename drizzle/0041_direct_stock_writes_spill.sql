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
  FOR r IN
    SELECT n.id, n.stock - coalesce((SELECT sum(x.stock) FROM branch_stock x WHERE x.variant_id = n.id), 0)::integer AS difference
    FROM new_rows n ORDER BY n.id
  LOOP
    CONTINUE WHEN r.difference = 0;
    IF r.difference > 0 THEN
      INSERT INTO branch_stock (variant_id, branch_id, stock) VALUES (r.id, home, r.difference)
      ON CONFLICT (variant_id, branch_id) DO UPDATE SET stock = branch_stock.stock + EXCLUDED.stock;
    ELSE
      left_to_take := -r.difference;
      FOR b IN SELECT branch_id, stock FROM branch_stock WHERE variant_id = r.id AND stock > 0 ORDER BY (branch_id = home) DESC, branch_id LOOP
        EXIT WHEN left_to_take = 0;
        UPDATE branch_stock SET stock = stock - least(left_to_take, b.stock) WHERE variant_id = r.id AND branch_id = b.branch_id;
        left_to_take := left_to_take - least(left_to_take, b.stock);
      END LOOP;
    END IF;
  END LOOP;
  RETURN NULL;
END $$;
