// Every table of the shop, gathered for Drizzle and drizzle-kit.
export * from "../modules/catalog/schema.ts";
export * from "../modules/auth/schema.ts";
export * from "../modules/account/schema.ts";
export * from "../modules/mail/schema.ts";
export * from "../modules/wishlist/schema.ts";
export * from "../modules/content/schema.ts";
export * from "../modules/hire/schema.ts";
export * from "../modules/basket/schema.ts";
export * from "../modules/delivery/schema.ts";
export * from "../modules/postcode/schema.ts";
export * from "../modules/orders/schema.ts";
export * from "../modules/trade/schema.ts";
export * from "../modules/trade/invoice-schema.ts";
export * from "../modules/trade/invitations-schema.ts";
export * from "../modules/trade/remittance-schema.ts";
export * from "../modules/staff/schema.ts";
export * from "../modules/audit/schema.ts";
