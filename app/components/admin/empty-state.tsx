import { FormAlert } from "../form.tsx";

// The back office's empty list is the shop's own (one look for "nothing here").
export { EmptyState } from "../page.tsx";

/**
 * Why a list could not be shown as asked (a bad date in its filters, an old
 * page link), above what it does show: announced when it appears; nothing
 * when there is none.
 */
export function ErrorState({ message }: { message: string | null | undefined }) {
  return <FormAlert message={message ?? undefined} className="mb-4" />;
}
