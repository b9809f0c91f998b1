import { type Email, shopEmail } from "../mail/templates.ts";

/** The customer's emails about their design consultation; the invite goes with each as an attachment. */

interface Details {
  appName: string;
  publicUrl: string;
  name: string;
  /** "Monday 1 June 2026 at 09:00" */
  when: string;
  branchName: string;
  address: string;
  branchPhone: string;
  manageUrl: string;
}

const bring = "Bring any measurements, photos or plans of the room, and ideas you have liked: the designer draws a plan with you and prices it from our ranges.";
const phone = (d: Details) => (d.branchPhone ? ` You can also call the showroom on ${d.branchPhone}.` : "");

export function bookedEmail(d: Details): Email {
  return shopEmail(d, `Your design consultation: ${d.when}, ${d.branchName}`, {
    title: "Your design consultation is booked",
    paragraphs: [
      `Hello ${d.name},`,
      `We look forward to seeing you on ${d.when} at our showroom at ${d.branchName}, ${d.address}.`,
      bring,
      "The calendar invite attached adds it to your calendar. To change the time or cancel, use the link below." + phone(d),
    ],
    action: { label: "Change or cancel", url: d.manageUrl },
  });
}

export function changedEmail(d: Details): Email {
  return shopEmail(d, `Your design consultation has moved: ${d.when}, ${d.branchName}`, {
    title: "Your design consultation has moved",
    paragraphs: [`Hello ${d.name},`, `Your consultation is now on ${d.when} at ${d.branchName}, ${d.address}.`, "The calendar invite attached updates your calendar." + phone(d)],
    action: { label: "Change or cancel", url: d.manageUrl },
  });
}

export function cancelledEmail(d: Details & { byShop: boolean; bookUrl: string }): Email {
  return shopEmail(d, `Your design consultation is cancelled: ${d.when}`, {
    title: "Your design consultation is cancelled",
    paragraphs: [
      `Hello ${d.name},`,
      d.byShop
        ? `We are sorry: we have had to cancel your consultation on ${d.when} at ${d.branchName}. Please book another time, or call us and we will find one with you.${phone(d)}`
        : `Your consultation on ${d.when} at ${d.branchName} is cancelled, as you asked.`,
      "The calendar invite attached removes it from your calendar. You are welcome to book again whenever suits you.",
    ],
    action: { label: "Book a consultation", url: d.bookUrl },
  });
}
