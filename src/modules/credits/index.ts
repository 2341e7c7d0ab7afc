import type { AppContext } from "../../app-context";
import { authPlugin } from "../../http/auth";
import { routeModule } from "../../http/module";
import { CreditsResponse } from "./model";
import { getCredits } from "./service";

export function creditRoutes(ctx: AppContext) {
  return routeModule("credits", "/api/v1")
    .use(authPlugin(ctx.store, ctx.clock))
    .get("/credits", ({ principal }) => getCredits(ctx, principal), {
      auth: "any",
      response: CreditsResponse,
      detail: {
        tags: ["Credits"],
        summary: "Credits and usage of the calling key (inference key) or of the organization (management key)",
        description:
          "USD. For an inference key: of its own limit and its workspace's budgets, the one with the least left; total_credits is that limit and total_usage the spend counted against it " +
          "in its current window, so total_credits - total_usage is what the key may still spend. For a management key: total_usage is the organization's all-time spend and total_credits " +
          "the sum of the workspaces' lifetime budgets when every workspace has one. Where no limit applies, total_credits is 1000000000 (unlimited) and total_usage the all-time spend.",
      },
    });
}
