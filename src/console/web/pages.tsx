import type { JSX } from "preact";
import type { Route } from "./router";
import type { Me } from "./types";
import { OverviewPage } from "./pages/overview";
import { KeysPage } from "./pages/keys";
import { GenerationsPage } from "./pages/generations";
import { GenerationDetailPage } from "./pages/generation-detail";
import { ModelsPage } from "./pages/models";
import { WorkspacesPage } from "./pages/workspaces";
import { ByokPage } from "./pages/byok";
import { PresetsPage } from "./pages/presets";
import { JobsPage } from "./pages/jobs";
import { DestinationsPage } from "./pages/destinations";

/** The console's pages, in the order of the navigation; `managersOnly` pages are hidden from members (the server refuses them anyway). */
export const PAGES: Array<{ id: string; title: string; managersOnly?: boolean }> = [
  { id: "overview", title: "Overview" },
  { id: "keys", title: "Keys" },
  { id: "generations", title: "Generations" },
  { id: "models", title: "Models" },
  { id: "workspaces", title: "Workspaces" },
  { id: "byok", title: "BYOK" },
  { id: "presets", title: "Presets" },
  { id: "observability", title: "Observability" },
  { id: "jobs", title: "Jobs" },
];

export function pageFor(route: Route, me: Me): JSX.Element {
  switch (route.page) {
    case "keys":
      return <KeysPage me={me} />;
    case "generations":
      return route.rest[0] ? <GenerationDetailPage id={route.rest[0]} /> : <GenerationsPage me={me} />;
    case "models":
      return <ModelsPage />;
    case "workspaces":
      return <WorkspacesPage me={me} />;
    case "byok":
      return <ByokPage me={me} />;
    case "presets":
      return <PresetsPage me={me} />;
    case "observability":
      return <DestinationsPage me={me} />;
    case "jobs":
      return <JobsPage me={me} />;
    case "overview":
    default:
      return <OverviewPage me={me} />;
  }
}
