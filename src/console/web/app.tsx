import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";
import { api, setCsrfToken } from "./api";
import { useLoad } from "./components/load";
import { LoadState } from "./components/notice";
import { PAGES, pageFor } from "./pages";
import { href, useRoute } from "./router";
import type { Me } from "./types";

/**
 * The header: the navigation, who is signed in and a sign-out form (a POST to /logout with the
 * session's CSRF token). On a narrow screen the navigation folds behind a Menu button, so the
 * header stays one line high.
 */
function Header({ me, current }: { me: Me; current: string }) {
  const [open, setOpen] = useState(false);
  // a page chosen from the menu closes it
  useEffect(() => setOpen(false), [current]);
  return (
    <header class="top">
      <span class="brand">Gateway console</span>
      <button type="button" class="menu-button" aria-expanded={open} aria-controls="console-nav" onClick={() => setOpen(!open)}>
        Menu
      </button>
      <nav id="console-nav" aria-label="Console pages" class={open ? "open" : undefined}>
        <ul>
          {PAGES.filter((p) => !p.managersOnly || me.manages).map((p) => (
            <li key={p.id}>
              <a href={href(p.id)} aria-current={current === p.id ? "page" : undefined}>
                {p.title}
              </a>
            </li>
          ))}
        </ul>
        <div class="who">
          <span class="who-name">
            {me.email} <span class="badge">{me.role}</span>
          </span>
          <form method="post" action="/logout" class="sign-out">
            <input type="hidden" name="csrf_token" value={me.csrf_token} />
            <button type="submit" class="button button-small">
              Sign out
            </button>
          </form>
        </div>
      </nav>
    </header>
  );
}

function Layout({ me, current, children }: { me: Me; current: string; children: ComponentChildren }) {
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <Header me={me} current={current} />
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
