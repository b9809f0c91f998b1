import type { ReactNode } from "react";
import { Breadcrumbs, PageHeading } from "./page.tsx";

/** The frame of every page inside the account: where you are, the title, the content. */
export function AccountPage({ title, intro, children, wide = false }: { title: string; intro?: ReactNode; children: ReactNode; wide?: boolean }) {
  return (
    <div className={`mx-auto ${wide ? "max-w-4xl" : "max-w-2xl"}`}>
      <Breadcrumbs
        items={[
          { label: "Home", to: "/" },
          { label: "Your account", to: "/account" },
          { label: title },
        ]}
      />
      <PageHeading title={title} intro={intro} />
      {children}
    </div>
  );
}
