// Dates as the shop's date fields take them: the server's own calendar.
import { addDays, londonDate } from "../../server/modules/hire/calendar.ts";

/** The calendar date `days` after today in London, `YYYY-MM-DD`. */
export const londonDay = (days: number): string => addDays(londonDate(), days);
