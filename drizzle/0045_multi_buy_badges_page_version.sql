-- Listings and product pages show the running multi-buys as badges (issue 32): a multi-buy made,
-- changed, paused or ended changes those pages, so it moves the page cache's version (ADR 0025),
-- as the catalogue's own tables do. Codes are not shown on pages: their writes (a use counted at
-- every checkout) leave the cached pages alone.
CREATE CONSTRAINT TRIGGER page_version_multi_buy_inserted AFTER INSERT ON promotions DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.code IS NULL) EXECUTE FUNCTION page_version_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER page_version_multi_buy_updated AFTER UPDATE ON promotions DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (NEW.code IS NULL OR OLD.code IS NULL) EXECUTE FUNCTION page_version_changed();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER page_version_multi_buy_deleted AFTER DELETE ON promotions DEFERRABLE INITIALLY DEFERRED
  FOR EACH ROW WHEN (OLD.code IS NULL) EXECUTE FUNCTION page_version_changed();
