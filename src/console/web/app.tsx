import type { ComponentChildren } from "preact";
import { api, setCsrfToken } from "./api";
import { useLoad } from "./components/load";
import { LoadState } from "./components/notice";
import { PAGES, pageFor } from "./pages";
import { href, useRoute } from "./router";
import type { Me } from "./types";

function Layout({ me, current, children }: { me: Me; current: string; children: ComponentChildren }) {
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Gateway console</span>
        <nav aria-label="Console pages">
          <ul>
            {PAGES.filter((p) => !p.managersOnly || me.manages).map((p) => (
              <li key={p.id}>
                <a href={href(p.id)} aria-current={current === p.id ? "page" : undefined}>
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <span class="who">
          {me.email} <span class="badge">{me.role}</span>
        </span>
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

export function App() {
  const route = useRoute();
  const me = useLoad(
    () =>
      api<{ data: Me }>("/me").then((r) => {
        setCsrfToken(r.data.csrf_token);
        return r.data;
      }),
    [],
  );
  if (!me.data)
    return (
      <main id="main">
        <LoadState loading={me.loading} error={me.error} what="the console" />
      </main>
    );
  return (
    <Layout me={me.data} current={route.page}>
      {pageFor(route, me.data)}
    </Layout>
  );
}
