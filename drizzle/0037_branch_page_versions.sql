-- Pages and API answers kept by the page cache (ADR 0025) read the branches: the
-- branch finder and pages, and the availability call's ready times. A change to
-- a branch (its hours, services, a closure) makes every kept page stale, as a
-- change to the catalogue does; stock moving at a branch already does, through
-- its variant's row.
CREATE CONSTRAINT TRIGGER page_version_changed AFTER INSERT OR UPDATE OR DELETE ON "branches" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION page_version_changed();
--> statement-breakpoint
CREATE TRIGGER page_version_truncated AFTER TRUNCATE ON "branches" FOR EACH STATEMENT EXECUTE FUNCTION page_version_changed();
