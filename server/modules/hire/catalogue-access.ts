import { type Permission, type StaffRole, can } from "../staff/permissions.ts";

/**
 * Who reads the hire catalogue: the catalogue's readers (`catalogue.view`) and
 * the hire desk (`hire.desk`), who look up units, asset numbers and rates at
 * the counter. Changing it needs `catalogue.manage`. A plain module: the
 * screens, the menu and the service read the same rule.
 */
export const HIRE_CATALOGUE_READERS = ["catalogue.view", "hire.desk"] as const satisfies readonly Permission[];

export function readsHireCatalogue(role: StaffRole): boolean {
  return HIRE_CATALOGUE_READERS.some((p) => can(role, p));
}
