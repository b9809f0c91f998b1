import type { Db } from "../../../db/client.ts";
import { creditNoteForMember, creditNotesOfMember } from "../invoices/credit-notes.ts";
import { deskAccountChanges } from "./account-changes.ts";
import { deskAccountReads } from "./accounts.ts";
import { deskApplications } from "./applications.ts";
import { type DeskOptions, deskContext } from "./common.ts";
import { deskMoney } from "./money.ts";

/**
 * The trade desk (issue 21, ADR 0040): applications, the accounts list, an
 * account's page, payments with allocation, remittances confirmed, credit
 * notes, notes and holds. `trade.manage` for applications, terms, notes and
 * holds; `invoices.manage` for money; either reads. Every write is audited
 * against the account (`trade_account`, its id), so its page shows one history.
 *
 * Its parts, each in its own file beside this one: the reads (accounts.ts),
 * applications (applications.ts), terms, holds and notes (account-changes.ts),
 * and money (money.ts); what they share is in common.ts.
 */

export { ACCOUNT_SORTS, type AccountSort } from "../desk-labels.ts";
export { DESK_PAGE_MAX } from "./accounts.ts";

export function createTradeDesk(db: Db, options: DeskOptions) {
  const context = deskContext(db, options);
  return {
    ...deskAccountReads(context),
    ...deskApplications(context),
    ...deskAccountChanges(context),
    ...deskMoney(context),
    /** For a member of the company who may read its invoices (owner, admin, accounts); 404 for anyone else. */
    creditNoteForMember: (userId: number, number: string) => creditNoteForMember(db, options.shop, userId, number),
    /** The company's credit notes, newest first (the latest 100), for its owners, admins and accounts users; 404 for anyone else. */
    creditNotesOfMember: (userId: number) => creditNotesOfMember(db, userId),
  };
}

export type TradeDesk = ReturnType<typeof createTradeDesk>;
