// Every table of the shop, gathered for Drizzle and drizzle-kit.
export * from "../modules/catalog/schema.ts";
