import type { Db } from "../../../db/client.ts";
import { HttpError } from "../../../http-errors.ts";
import { sha256 } from "../../auth/tokens.ts";
import { type StaffActor, authorize } from "../../staff/actor.ts";
import { isExclusionViolation } from "../requests.ts";
import { agreementData, agreementPdf } from "./agreement-pdf.ts";
import type { HireOperationsOptions } from "./common.ts";
import { createHireBookings } from "./bookings.ts";
import type { BookingInput, BookingQuoteInput } from "./contract.ts";
import { type ApproveInput, createHireDecisions } from "./decisions.ts";
import { type ExtraCharge, type HandOverInput, type ReturnInput, createOnHire } from "./on-hire.ts";
import { type SettlementMethod, createSettlement } from "./settle.ts";
import { requestDetail } from "./view.ts";

/** A unit another hire (or a service) already holds for those dates: the exclusion constraint said so, in plain words. */
async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isExclusionViolation(error)) throw new HttpError(409, "That unit is already out, booked or in service for those dates: choose another unit or other dates.");
    throw error;
  }
}

/**
 * The hire desk's operations on a hire request (issue 21, ADR 0039):
 * approve, decline, propose dates; hand over, off-hire, return and charge;
 * send a unit to service; settle. Every call needs `hire.desk`, every write
 * is audited in its transaction and emails the customer through the outbox.
 */
export function createHireOperations(db: Db, options: HireOperationsOptions) {
  const decisions = createHireDecisions(db, options);
  const bookings = createHireBookings(db, options);
  const onHire = createOnHire(db, options);
  const settlement = createSettlement(db, options);
  const kick = <T>(value: T): T => {
    options.mail.kick?.();
    return value;
  };
  const run = async <T>(actor: StaffActor, work: () => Promise<T>): Promise<T> => {
    authorize(actor, "hire.desk");
    return kick(await guarded(work));
  };

  return {
    async show(actor: StaffActor, number: string) {
      authorize(actor, "hire.desk");
      return requestDetail(db, number, options.cardPayments);
    },
    /** A hire taken by staff (issue 34): booked and confirmed at once, 409 naming the clash when the unit is taken. */
    book: (actor: StaffActor, input: BookingInput) => run(actor, () => bookings.book(actor, input)),
    async quoteBooking(actor: StaffActor, input: BookingQuoteInput) {
      authorize(actor, "hire.desk");
      return bookings.quote(input);
    },
    async bookableUnits(actor: StaffActor, slug: string) {
      authorize(actor, "hire.desk");
      return bookings.units(slug);
    },
    async itemOfUnit(actor: StaffActor, unitId: number) {
      authorize(actor, "hire.desk");
      return bookings.itemOfUnit(unitId);
    },
    approve: (actor: StaffActor, number: string, input: ApproveInput) => run(actor, () => decisions.approve(actor, number, input)),
    decline: (actor: StaffActor, number: string, reason: string) => run(actor, () => decisions.decline(actor, number, reason)),
    propose: (actor: StaffActor, number: string, input: { start_date: string; end_date: string; message?: string }) => run(actor, () => decisions.propose(actor, number, input)),
    handOver: (actor: StaffActor, number: string, input: HandOverInput) => run(actor, () => onHire.handOver(actor, number, input)),
    offHire: (actor: StaffActor, number: string, input: { date?: string; note?: string; handover_ids?: number[] }) => run(actor, () => onHire.offHire(actor, number, input)),
    returnUnit: (actor: StaffActor, number: string, handoverId: number, input: ReturnInput) => run(actor, () => onHire.returnUnit(actor, number, handoverId, input)),
    addCharge: (actor: StaffActor, number: string, input: ExtraCharge) => run(actor, () => onHire.addCharge(actor, number, input)),
    sendToService: (actor: StaffActor, unitId: number, input: { days: number; reason: string; from?: string }) => run(actor, () => onHire.sendToService(actor, unitId, input)),
    settle: (actor: StaffActor, number: string, input: { method?: SettlementMethod; note?: string }) => run(actor, () => settlement.settle(actor, number, input)),

    /** The agreement PDF for the desk to print. */
    async agreement(actor: StaffActor, number: string, handoverId: number) {
      authorize(actor, "hire.desk");
      const data = await agreementData(db, { handoverId, requestNumber: number });
      return { filename: `${data.handover.agreementNumber}.pdf`, pdf: await agreementPdf(options.shop, data) };
    },

    /** The agreement by the link emailed to the customer. */
    async agreementByToken(token: string) {
      if (token.length > 100) throw new HttpError(404, "No such hire agreement.");
      const data = await agreementData(db, { tokenHash: sha256(token) });
      return { filename: `${data.handover.agreementNumber}.pdf`, pdf: await agreementPdf(options.shop, data) };
    },
  };
}

export type HireOperations = ReturnType<typeof createHireOperations>;
