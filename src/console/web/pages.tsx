import type { JSX } from "preact";
import type { Route } from "./router";
import type { Me } from "./types";
import { OverviewPage } from "./pages/overview";
import { KeysPage } from "./pages/keys";
import { GenerationsPage } from "./pages/generations";
import { GenerationDetailPage } from "./pages/generation-detail";

/** The console's pages, in the order of the navigation; `managersOnly` pages are hidden from members (the server refuses them anyway). */
export const PAGES: Array<{ id: string; title: string; managersOnly?: boolean }> = [
  { id: "overview", title: "Overview" },
  { id: "keys", title: "Keys" },
  { id: "generations", title: "Generations" },
];

export function pageFor(route: Route, me: Me): JSX.Element {
  switch (route.page) {
    case "keys":
      return <KeysPage me={me} />;
    case "generations":
      return route.rest[0] ? <GenerationDetailPage id={route.rest[0]} /> : <GenerationsPage me={me} />;
    case "overview":
    default:
      return <OverviewPage me={me} />;
  }
}
