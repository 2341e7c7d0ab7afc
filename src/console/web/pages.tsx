import type { JSX } from "preact";
import { AuditPage } from "./pages/audit";
import { ByokPage } from "./pages/byok";
import { CachePage } from "./pages/cache";
import { DestinationsPage } from "./pages/destinations";
import { GenerationDetailPage } from "./pages/generation-detail";
import { GenerationsPage } from "./pages/generations";
import { GroupsPage } from "./pages/groups";
import { GuardrailsPage } from "./pages/guardrails";
import { JobsPage } from "./pages/jobs";
import { KeysPage } from "./pages/keys";
import { ModelsPage } from "./pages/models";
import { OverviewPage } from "./pages/overview";
import { PeoplePage } from "./pages/people";
import { PlaygroundPage } from "./pages/playground";
import { PresetsPage } from "./pages/presets";
import { WorkspacesPage } from "./pages/workspaces";
import type { Route } from "./router";
import type { Me } from "./types";

/** The console's pages, in the order of the navigation; `managersOnly` pages are hidden from members (the server refuses them anyway). */
export const PAGES: Array<{ id: string; title: string; managersOnly?: boolean }> = [
  { id: "overview", title: "Overview" },
  { id: "keys", title: "Keys" },
  { id: "generations", title: "Generations" },
  { id: "models", title: "Models" },
  { id: "playground", title: "Playground" },
  { id: "workspaces", title: "Workspaces" },
  { id: "people", title: "People", managersOnly: true },
  { id: "groups", title: "Groups", managersOnly: true },
  { id: "audit", title: "Audit", managersOnly: true },
  { id: "byok", title: "BYOK" },
  { id: "presets", title: "Presets" },
  { id: "guardrails", title: "Guardrails" },
  { id: "cache", title: "Cache" },
  { id: "observability", title: "Observability" },
  { id: "jobs", title: "Jobs" },
];

export function pageFor(route: Route, me: Me): JSX.Element {
  switch (route.page) {
    case "keys":
      return <KeysPage me={me} />;
    case "generations":
      return route.rest[0] ? <GenerationDetailPage id={route.rest[0]} /> : <GenerationsPage me={me} params={route.params} />;
    case "models":
      return <ModelsPage />;
    case "playground":
      return <PlaygroundPage me={me} />;
    case "people":
      return <PeoplePage me={me} />;
    case "groups":
      return <GroupsPage me={me} />;
    case "audit":
      return <AuditPage params={route.params} />;
    case "workspaces":
      return <WorkspacesPage me={me} />;
    case "byok":
      return <ByokPage me={me} />;
    case "presets":
      return <PresetsPage me={me} />;
    case "guardrails":
      return <GuardrailsPage me={me} />;
    case "cache":
      return <CachePage me={me} />;
    case "observability":
      return <DestinationsPage me={me} />;
    case "jobs":
      return <JobsPage me={me} />;
    default:
      return <OverviewPage me={me} />;
  }
}
